import { Cron } from 'croner';
import type { AutoUpdateOverride, AutoUpdatePolicy } from '@berth/contract';
import { ValidationError } from '../../errors';

/** Labels that set an app's policy; they win over the stored override and the global policy. */
export const AUTO_UPDATE_LABEL = 'berth.auto-update';
export const AUTO_UPDATE_SCHEDULE_LABEL = 'berth.auto-update.schedule';

/** Off until an admin turns it on; a run at 04:00 in notify mode when they do. */
export const DEFAULT_POLICY: AutoUpdatePolicy = {
  enabled: false,
  mode: 'notify',
  schedule: '0 4 * * *',
  settle_seconds: 30,
};

/** The policy that applies to an app: labels, then its override, then the global policy. */
export function effectivePolicy(
  global: AutoUpdatePolicy,
  override: AutoUpdateOverride | null,
  labels: Record<string, string>,
): AutoUpdatePolicy {
  const label = labels[AUTO_UPDATE_LABEL]?.trim().toLowerCase();
  const labelEnabled = label === 'true' ? true : label === 'false' ? false : null;
  const labelSchedule = labels[AUTO_UPDATE_SCHEDULE_LABEL]?.trim();
  return {
    enabled: labelEnabled ?? override?.enabled ?? global.enabled,
    mode: override?.mode ?? global.mode,
    schedule:
      (labelSchedule && isSchedule(labelSchedule) ? labelSchedule : null) ?? override?.schedule ?? global.schedule,
    settle_seconds: override?.settle_seconds ?? global.settle_seconds,
  };
}

/** The labels of `labels` that take part in the policy. */
export const policyLabels = (labels: Record<string, string>) =>
  Object.fromEntries(
    Object.entries(labels).filter(([k]) => k === AUTO_UPDATE_LABEL || k === AUTO_UPDATE_SCHEDULE_LABEL),
  );

function isSchedule(expr: string): boolean {
  try {
    new Cron(expr, { paused: true }).stop();
    return true;
  } catch {
    return false;
  }
}

/** A 400 naming the schedule when croner cannot read it. */
export function checkSchedule(expr: string | null): void {
  if (expr !== null && !isSchedule(expr)) {
    throw new ValidationError(
      `"${expr}" is not a cron expression (5 fields, or 6 with seconds first, e.g. "0 4 * * *").`,
      [{ field: 'schedule', message: 'Not a cron expression.' }],
    );
  }
}

/** When a schedule fires next (ISO), null when never. */
export function nextRun(expr: string): string | null {
  const job = new Cron(expr, { paused: true });
  const next = job.nextRun();
  job.stop();
  return next ? next.toISOString() : null;
}
