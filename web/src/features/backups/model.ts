import {
  BackupTarget,
  NewBackupDestination,
  type BackupArchive,
  type BackupJob,
  type BackupRun,
} from '@berth/contract';
import { unionBody, unionFields, unionKinds, type FieldSpec, type FieldValues, type KindUnion } from './form-schema';

export type DestinationKind = NewBackupDestination['kind'];
export type TargetKind = BackupTarget['kind'];

const destinations = NewBackupDestination as unknown as KindUnion;
const targets = BackupTarget as unknown as KindUnion;

export const destinationKinds = () => unionKinds(destinations) as DestinationKind[];
export const destinationFields = (kind: DestinationKind): FieldSpec[] => unionFields(destinations, kind);
export const destinationBody = (kind: DestinationKind, fields: FieldSpec[], values: FieldValues) =>
  unionBody(kind, fields, values) as NewBackupDestination;

export const targetKinds = () => unionKinds(targets) as TargetKind[];
export const targetFields = (kind: TargetKind): FieldSpec[] => unionFields(targets, kind);
export const targetBody = (kind: TargetKind, fields: FieldSpec[], values: FieldValues) =>
  unionBody(kind, fields, values) as BackupTarget;

/** What a job backs up, in words. */
export function targetText(target: BackupTarget): string {
  switch (target.kind) {
    case 'volumes':
      return `${target.volumes.length === 1 ? 'Volume' : 'Volumes'} ${target.volumes.join(', ')}${target.mode === 'stop' ? ' (stopped for the copy)' : ''}`;
    case 'project':
      return `Project ${target.project}${target.mode === 'stop' ? ' (stopped for the copy)' : ''}`;
    default:
      return `Berth itself${target.include_stats ? ' with its stats history' : ''}`;
  }
}

/**
 * The jobs of `env` that back up a volume's or project's data: a volume's page, the volume
 * jobs naming it; a project's page, the jobs of that project and the volume jobs of its volumes.
 */
export function jobsCovering(
  jobs: readonly BackupJob[],
  env: string,
  what: { volumes: readonly string[]; project?: string },
): BackupJob[] {
  return jobs.filter(
    (j) =>
      j.environment === env &&
      ((j.target.kind === 'project' && j.target.project === what.project) ||
        (j.target.kind === 'volumes' && j.target.volumes.some((v) => what.volumes.includes(v)))),
  );
}

/** The newest backup run among jobs (null: none ran yet). */
export function lastBackup(jobs: readonly BackupJob[]): BackupRun | null {
  let newest: BackupRun | null = null;
  for (const j of jobs) if (j.last_run && (!newest || j.last_run.started_at > newest.started_at)) newest = j.last_run;
  return newest;
}

/** Archives grouped by the job that made them (its name from the manifest), newest first within each. */
export function archivesByTarget(archives: readonly BackupArchive[]): { job: string; archives: BackupArchive[] }[] {
  const groups = new Map<string, BackupArchive[]>();
  for (const a of archives) groups.set(a.manifest.job, [...(groups.get(a.manifest.job) ?? []), a]);
  return [...groups]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([job, list]) => ({ job, archives: list.sort((x, y) => y.created_at.localeCompare(x.created_at)) }));
}

/** Retention in words: "last 7, 7 daily, 4 weekly". */
export function retentionText(job: Pick<BackupJob, 'keep_last' | 'keep_daily' | 'keep_weekly'>): string {
  return [
    `last ${job.keep_last}`,
    ...(job.keep_daily ? [`${job.keep_daily} daily`] : []),
    ...(job.keep_weekly ? [`${job.keep_weekly} weekly`] : []),
  ].join(', ');
}

/** A restore's progress as a percent of the archive read in the current pass. */
export function progressPercent(p: { bytes: number; total: number } | null): number {
  if (!p || p.total <= 0) return 0;
  return Math.min(100, Math.round((p.bytes / p.total) * 100));
}
