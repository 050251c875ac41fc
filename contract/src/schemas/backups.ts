import { z } from 'zod';
import { defineRoute } from '../route';
import {
  BackupTarget,
  BackupVolumeName as VolumeName,
  BerthRestoreBody,
  NewS3Destination,
  ProjectRestoreBody,
  RestoredSection,
} from './backup-targets';

export * from './backup-targets';

const Name = z.string().trim().min(1).max(80);

/** Where archives are kept. Secrets (SFTP password or private key, S3 secret key) are write-only. */
export const BackupDestination = z.object({
  id: z.number().int(),
  name: z.string(),
  kind: z.enum(['folder', 'sftp', 's3']),
  /** The folder (on Berth's host for `folder`, on the server for `sftp`); the key prefix for `s3`. */
  path: z.string(),
  host: z.string().nullable(),
  port: z.number().int().nullable(),
  username: z.string().nullable(),
  /** The SFTP server's pinned host key (`ssh-ed25519 AAAA…`). */
  host_key: z.string().nullable(),
  /** S3: the endpoint (null for AWS), region, bucket and access key id. */
  endpoint: z.string().nullable(),
  region: z.string().nullable(),
  bucket: z.string().nullable(),
  access_key_id: z.string().nullable(),
  has_secret: z.boolean(),
  created_at: z.string(),
});
export type BackupDestination = z.infer<typeof BackupDestination>;

const AbsPath = z.string().trim().min(1).max(1024).regex(/^\//, 'must be an absolute path');
export const NewBackupDestination = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('folder'), name: Name, path: AbsPath }),
  z.object({
    kind: z.literal('sftp'),
    name: Name,
    host: z.string().trim().min(1).max(255),
    port: z.number().int().min(1).max(65535).default(22),
    username: z.string().trim().min(1).max(255),
    path: AbsPath,
    host_key: z
      .string()
      .trim()
      .regex(/^(ssh-ed25519|ssh-rsa|ecdsa-sha2-nistp(256|384|521)) [A-Za-z0-9+/=]+( .*)?$/, 'must be a host key line'),
    password: z.string().min(1).max(1024).optional(),
    private_key: z.string().min(1).max(16_384).optional(),
  }),
  NewS3Destination,
]);
export type NewBackupDestination = z.infer<typeof NewBackupDestination>;

export const BackupRun = z.object({
  id: z.number().int(),
  job_id: z.number().int().nullable(),
  kind: z.enum(['backup', 'drill', 'restore']),
  started_at: z.string(),
  finished_at: z.string().nullable(),
  outcome: z.enum(['running', 'ok', 'failed']),
  bytes: z.number().nullable(),
  duration_ms: z.number().nullable(),
  archive: z.string().nullable(),
  error: z.string().nullable(),
});
export type BackupRun = z.infer<typeof BackupRun>;

export const BackupJob = z.object({
  id: z.number().int(),
  name: z.string(),
  environment: z.string(),
  /** The volumes of a `volumes` target (empty for another kind). */
  volumes: z.array(z.string()),
  target: BackupTarget,
  /** Said when the archives hold secrets (a Berth target). */
  warning: z.string().nullable(),
  destination_id: z.number().int(),
  /** Cron (croner) for backups; null: run by hand only. */
  schedule: z.string().nullable(),
  /** Restore drills (cron); null: by hand only. */
  drill_schedule: z.string().nullable(),
  keep_last: z.number().int(),
  /** Also kept: the newest archive of each of the last `keep_daily` days and `keep_weekly` ISO weeks (UTC). */
  keep_daily: z.number().int(),
  keep_weekly: z.number().int(),
  encrypted: z.boolean(),
  last_run: BackupRun.nullable(),
  last_verified_at: z.string().nullable(),
});
export type BackupJob = z.infer<typeof BackupJob>;

const Schedule = z.string().trim().min(1).max(120);
const KeepLast = z.number().int().min(1).max(1000);
const KeepPeriods = z.number().int().min(0).max(1000);

export const NewBackupJob = z.object({
  name: Name,
  environment: z.string().min(1).max(64).default('local'),
  /** Shorthand for `target: {kind: 'volumes', volumes}`. */
  volumes: z.array(VolumeName).min(1).max(50).optional(),
  /** What to back up (one of `volumes` or `target`). */
  target: BackupTarget.optional(),
  destination_id: z.number().int(),
  schedule: Schedule.nullable().default(null),
  drill_schedule: Schedule.nullable().default('0 4 * * 0'),
  keep_last: KeepLast.default(7),
  keep_daily: KeepPeriods.default(0),
  keep_weekly: KeepPeriods.default(0),
  passphrase: z.string().min(8, 'at least 8 characters').max(1024).optional(),
});
export type NewBackupJob = z.infer<typeof NewBackupJob>;

/**
 * A job's changes: only the fields given change. The environment and the passphrase stay (the
 * job's older archives are opened with its passphrase).
 */
export const PatchBackupJob = z.object({
  name: Name.optional(),
  /** Shorthand for a target of these volumes. */
  volumes: z.array(VolumeName).min(1).max(50).optional(),
  target: BackupTarget.optional(),
  destination_id: z.number().int().optional(),
  schedule: Schedule.nullable().optional(),
  drill_schedule: Schedule.nullable().optional(),
  keep_last: KeepLast.optional(),
  keep_daily: KeepPeriods.optional(),
  keep_weekly: KeepPeriods.optional(),
});
export type PatchBackupJob = z.infer<typeof PatchBackupJob>;

export const TreeSummary = z.object({
  entries: z.number(),
  files: z.number(),
  bytes: z.number(),
  sha256: z.string(),
});

/** What an archive holds, written beside it as `<archive>.json`. */
export const BackupManifest = z.object({
  format: z.literal('berth-backup/1'),
  created_at: z.string(),
  job: z.string(),
  environment: z.string(),
  archive: z.object({
    name: z.string(),
    bytes: z.number(),
    sha256: z.string(),
    compression: z.literal('zstd'),
    encryption: z.enum(['age']).nullable(),
  }),
  tar_bytes: z.number(),
  volumes: z.array(TreeSummary.extend({ name: z.string() })),
  /** What was backed up (absent in archives of volume jobs made before targets). */
  target: BackupTarget.optional(),
  /** Folders beside the volumes: `project` (a project's folder) or `berth` (Berth's files). */
  folders: z.array(TreeSummary.extend({ name: z.string() })).optional(),
  warning: z.string().optional(),
});
export type BackupManifest = z.infer<typeof BackupManifest>;

export const BackupArchive = z.object({
  id: z.number().int(),
  job_id: z.number().int().nullable(),
  destination_id: z.number().int(),
  name: z.string(),
  created_at: z.string(),
  bytes: z.number(),
  manifest: BackupManifest,
  verified_at: z.string().nullable(),
  verify_error: z.string().nullable(),
});
export type BackupArchive = z.infer<typeof BackupArchive>;

export const VolumeRestoreBody = z.object({
  kind: z.literal('volume').optional(),
  archive_id: z.number().int(),
  /** The volume as the archive names it. */
  volume: VolumeName,
  /** The volume to restore into: a new one, or an existing one with `overwrite`. */
  into: VolumeName,
  /** Empty and replace an existing volume (its containers are stopped for it and started after). */
  overwrite: z.boolean().default(false),
  /** For an encrypted archive; default the job's own. */
  passphrase: z.string().min(1).max(1024).optional(),
});
export type VolumeRestoreBody = z.infer<typeof VolumeRestoreBody>;
/** A volume (no `kind`, or `volume`), a project, or Berth's own files. */
export const RestoreBody = z.union([VolumeRestoreBody, ProjectRestoreBody, BerthRestoreBody]);
export type RestoreBody = z.infer<typeof RestoreBody>;

export const RestoreResult = z.object({
  run: BackupRun,
  volume: z.string(),
  /** The restored volume read back has the archive's tree checksum. */
  verified: z.boolean(),
  tree: TreeSummary,
  /** Every part put back (a project's folder and volumes, Berth's files). */
  restored: z.array(RestoredSection),
});
export type RestoreResult = z.infer<typeof RestoreResult>;

/** One `progress` event of a streamed restore: which pass, and how much of the stored archive it has read. */
export const RestoreProgress = z.object({
  phase: z.enum(['checking', 'stopping', 'writing', 'starting']),
  bytes: z.number(),
  total: z.number(),
});
export type RestoreProgress = z.infer<typeof RestoreProgress>;

export const DestinationTestResult = z.object({ ok: z.boolean(), detail: z.string() });
export type DestinationTestResult = z.infer<typeof DestinationTestResult>;

const RESTORE_STREAM_NOTE =
  'Send `Accept: text/event-stream` to follow it: `progress` events (RestoreProgress: the archive is read once to check ' +
  'it, then again to write the volume), then `done` (data: the plain JSON answer) or `error` (data: {detail, code}).';

const IdParams = z.object({ id: z.coerce.number().int() });
const base = { scope: 'global', tag: 'backups', role: 'admin' } as const;

export const backupsApi = {
  destinations: defineRoute({
    ...base,
    method: 'GET',
    path: '/api/backups/destinations',
    summary: 'Backup destinations (never their secrets)',
    response: z.array(BackupDestination),
  }),
  createDestination: defineRoute({
    ...base,
    method: 'POST',
    path: '/api/backups/destinations',
    summary: 'Add a backup destination (folder or SFTP; checked by writing to it)',
    body: NewBackupDestination,
    response: BackupDestination,
  }),
  removeDestination: defineRoute({
    ...base,
    method: 'DELETE',
    path: '/api/backups/destinations/{id}',
    summary: 'Remove a destination no job uses (its archives stay where they are)',
    params: IdParams,
    response: z.object({ removed: z.literal(true) }),
  }),
  testDestination: defineRoute({
    ...base,
    method: 'POST',
    path: '/api/backups/destinations/{id}/test',
    summary: 'Test a destination: write and remove a small file there',
    params: IdParams,
    response: DestinationTestResult,
  }),
  jobs: defineRoute({
    ...base,
    method: 'GET',
    path: '/api/backups/jobs',
    summary: 'Backup jobs with their last run and last verified restore',
    response: z.array(BackupJob),
  }),
  createJob: defineRoute({
    ...base,
    method: 'POST',
    path: '/api/backups/jobs',
    summary: 'Add a backup job (volumes, destination, schedule, retention, passphrase)',
    body: NewBackupJob,
    response: BackupJob,
  }),
  updateJob: defineRoute({
    ...base,
    method: 'PATCH',
    path: '/api/backups/jobs/{id}',
    summary: 'Change a job (only the fields given; not its environment or passphrase)',
    params: IdParams,
    body: PatchBackupJob,
    response: BackupJob,
  }),
  removeJob: defineRoute({
    ...base,
    method: 'DELETE',
    path: '/api/backups/jobs/{id}',
    summary: 'Remove a job (its archives stay)',
    params: IdParams,
    response: z.object({ removed: z.literal(true) }),
  }),
  runJob: defineRoute({
    ...base,
    method: 'POST',
    path: '/api/backups/jobs/{id}/run',
    summary: 'Back up now; answers the finished run',
    params: IdParams,
    response: BackupRun,
  }),
  drillJob: defineRoute({
    ...base,
    method: 'POST',
    path: '/api/backups/jobs/{id}/drill',
    summary: "Restore drill: the job's newest archive into a throwaway volume, checked and removed",
    params: IdParams,
    response: BackupRun,
  }),
  runs: defineRoute({
    ...base,
    method: 'GET',
    path: '/api/backups/runs',
    summary: 'Backup, drill and restore runs, newest first',
    querystring: z.object({ job_id: z.coerce.number().int().optional() }),
    response: z.array(BackupRun),
  }),
  archives: defineRoute({
    ...base,
    method: 'GET',
    path: '/api/backups/archives',
    summary: 'Archives kept, newest first, with whether and when each was verified',
    querystring: z.object({ job_id: z.coerce.number().int().optional() }),
    response: z.array(BackupArchive),
  }),
  verifyArchive: defineRoute({
    ...base,
    method: 'POST',
    path: '/api/backups/archives/{id}/verify',
    summary: 'Verify now: restore this archive into a throwaway volume and check it',
    params: IdParams,
    response: BackupRun,
  }),
  restore: defineRoute({
    ...base,
    method: 'POST',
    path: '/api/backups/restore',
    summary:
      'Restore from an archive: a volume (new or over one), a project (folder and volumes), or Berth into a new data folder. ' +
      RESTORE_STREAM_NOTE,
    body: RestoreBody,
    response: RestoreResult,
  }),
};
