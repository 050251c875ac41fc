import { Cron } from 'croner';
import { VERSION_POLICIES, type AutoUpdateOverride, type AutoUpdatePolicy, type VersionPolicy } from '@berth/contract';
import { MIN_SCHEDULE_INTERVAL_MS, readSchedule, type ScheduleProblem } from '@berth/contract/cron';
import { ValidationError } from '../../errors';
import { versionMoves } from '../images/version-tags';

/** Labels that set an app's policy; they win over the stored override and the global policy. */
export const AUTO_UPDATE_LABEL = 'berth.auto-update';
export const AUTO_UPDATE_SCHEDULE_LABEL = 'berth.auto-update.schedule';
/** `digest`, `patch`, `minor` or `major`: how far an update may move the version tag (a compose service's own). */
export const AUTO_UPDATE_VERSION_LABEL = 'berth.auto-update.version-policy';
const POLICY_LABELS = new Set([AUTO_UPDATE_LABEL, AUTO_UPDATE_SCHEDULE_LABEL, AUTO_UPDATE_VERSION_LABEL]);

let minIntervalMs = MIN_SCHEDULE_INTERVAL_MS;

/** AUTO_UPDATE_MIN_INTERVAL_SECONDS, set once at start (tests of the scheduler lower it to see a run fire). */
export function setMinScheduleInterval(ms: number): void {
  minIntervalMs = ms;
}

/**
 * The container's own `berth.*` labels: those the image also carries with the same value are the
 * image's (a container inherits its image's labels), and an image must not switch its own updates on.
 */
export function ownPolicyLabels(
  container: Record<string, string>,
  image: Record<string, string> | null | undefined,
): Record<string, string> {
  return Object.fromEntries(Object.entries(policyLabels(container)).filter(([k, v]) => !image || image[k] !== v));
}

/** Off until an admin turns it on; a run at 04:00 in notify mode when they do. */
export const DEFAULT_POLICY: AutoUpdatePolicy = {
  enabled: false,
  mode: 'notify',
  schedule: '0 4 * * *',
  settle_seconds: 30,
  version_policy: 'digest',
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
  const labelVersion = labels[AUTO_UPDATE_VERSION_LABEL]?.trim().toLowerCase();
  return {
    enabled: labelEnabled ?? override?.enabled ?? global.enabled,
    mode: override?.mode ?? global.mode,
    schedule:
      (labelSchedule && isSchedule(labelSchedule) ? labelSchedule : null) ?? override?.schedule ?? global.schedule,
    settle_seconds: override?.settle_seconds ?? global.settle_seconds,
    version_policy:
      (VERSION_POLICIES.includes(labelVersion as VersionPolicy) ? (labelVersion as VersionPolicy) : null) ??
      override?.version_policy ??
      global.version_policy,
  };
}

/** The labels of `labels` that take part in the policy. */
export const policyLabels = (labels: Record<string, string>) =>
  Object.fromEntries(Object.entries(labels).filter(([k]) => POLICY_LABELS.has(k)));

/** Whether croner reads `expr` and it never fires twice within the minimum interval. */
export function isSchedule(expr: string): boolean {
  return scheduleProblem(expr) === null;
}

function scheduleProblem(expr: string): ScheduleProblem | null {
  return readSchedule(expr, minIntervalMs, 1).problem;
}

/** A 400 naming the schedule when croner cannot read it or it would run more often than every 5 minutes. */
export function checkSchedule(expr: string | null): void {
  const problem = expr === null ? null : scheduleProblem(expr);
  if (problem === 'unreadable') {
    throw new ValidationError(
      `"${expr}" is not a cron expression (5 fields, or 6 with seconds first, e.g. "0 4 * * *").`,
      [{ field: 'schedule', message: 'Not a cron expression.' }],
    );
  }
  if (problem === 'too_often') {
    throw new ValidationError(
      `"${expr}" runs more often than every ${minIntervalMs / 1000} seconds; each run pulls every image it covers.`,
      [{ field: 'schedule', message: `At most one run every ${minIntervalMs / 1000} seconds.` }],
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

/** Every image's labels by image ID, from one engine call (a container's `berth.*` labels are compared with them). */
export async function imageLabels(docker: {
  listImages(): Promise<{ Id: string; Labels?: Record<string, string> | null }[]>;
}): Promise<Map<string, Record<string, string>>> {
  return new Map((await docker.listImages()).map((i) => [i.Id, i.Labels ?? {}]));
}

/**
 * The newest reference `ref` may move to under `policy` (tags from `newer`) that did not fail the
 * health gate before (`isBad`), and the newer tags passed over because they did.
 */
export function chooseVersionMove(
  ref: string,
  newer: readonly string[],
  policy: VersionPolicy,
  isBad: (ref: string) => boolean,
): { move: { tag: string; ref: string } | null; skipped: string[] } {
  const skipped: string[] = [];
  for (const move of versionMoves(ref, newer, policy)) {
    if (!isBad(move.ref)) return { move, skipped };
    skipped.push(move.tag);
  }
  return { move: null, skipped };
}

/** The reason a run gives for tags it passed over. */
export const skippedTags = (tags: string[]) =>
  `Skipped ${tags.join(', ')}: ${tags.length > 1 ? 'they' : 'it'} failed the health gate before; waiting for a newer version.`;
