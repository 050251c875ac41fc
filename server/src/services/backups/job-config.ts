import { readSchedule } from '@berth/contract/cron';
import { BERTH_ARCHIVE_WARNING, type BackupJob, type BackupTarget, type PatchBackupJob } from '@berth/contract';
import type { BackupsRepo, JobRow } from '../../db/backups-repo';
import { ValidationError } from '../../errors';
import { targetOf } from './targets';

/** Schedules may not fire more often than this. */
const MIN_INTERVAL_MS = 5 * 60_000;

/** Refuses a backup or drill schedule croner cannot read or that fires more often than every 5 minutes. */
export function checkSchedules(body: { schedule?: string | null; drill_schedule?: string | null }): void {
  for (const field of ['schedule', 'drill_schedule'] as const) {
    const expr = body[field];
    if (expr && readSchedule(expr, MIN_INTERVAL_MS).problem)
      throw new ValidationError(`${field}: not a cron schedule at least 5 minutes apart: ${expr}`, [
        { field, message: 'unreadable or too often' },
      ]);
  }
}

/** A job's row with a PATCH's fields applied (only those given). */
export function patchedRow(row: JobRow, body: PatchBackupJob): JobRow {
  const { volumes, target: newTarget, ...rest } = body;
  const given = Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined));
  const was = targetOf(row);
  // `volumes` alone keeps a target of volumes' copy mode.
  const target: BackupTarget | undefined =
    newTarget ?? (volumes ? { kind: 'volumes', volumes, mode: was.kind === 'volumes' ? was.mode : 'live' } : undefined);
  const columns = target
    ? { target: JSON.stringify(target), volumes: JSON.stringify(target.kind === 'volumes' ? target.volumes : []) }
    : {};
  return { ...row, ...given, ...columns };
}

/** A job as the API shows it: never its passphrase, with its last run and last verified restore. */
export function jobView(j: JobRow, repo: BackupsRepo): BackupJob {
  const target = targetOf(j);
  return {
    id: j.id,
    name: j.name,
    environment: j.environment,
    volumes: target.kind === 'volumes' ? target.volumes : [],
    target,
    warning: target.kind === 'berth' ? BERTH_ARCHIVE_WARNING : null,
    destination_id: j.destination_id,
    schedule: j.schedule,
    drill_schedule: j.drill_schedule,
    keep_last: j.keep_last,
    keep_daily: j.keep_daily,
    keep_weekly: j.keep_weekly,
    encrypted: j.passphrase_sealed !== null,
    last_run: repo.lastRun(j.id),
    last_verified_at: repo.lastVerified(j.id),
  };
}
