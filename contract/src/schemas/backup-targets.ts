import { z } from 'zod';
import { PROJECT_NAME_PATTERN, PROJECT_NAME_RULE } from './project';

/**
 * What a backup job copies and where else archives go (issue 35): the parts beside volumes and
 * folder/SFTP destinations. `backups.ts` joins them into its unions, discriminated by `kind`.
 */

export const BackupVolumeName = z
  .string()
  .regex(/^[a-zA-Z0-9][a-zA-Z0-9_.-]{0,254}$/, 'must be a volume name (letters, digits, _ . -)');
const ProjectName = z.string().regex(PROJECT_NAME_PATTERN, PROJECT_NAME_RULE);

/** How a target is read: as it runs, or with the project's running containers stopped for the copy. */
export const CopyMode = z.enum(['live', 'stop']);

/** One or more named volumes. */
export const VolumesTarget = z.object({
  kind: z.literal('volumes'),
  volumes: z.array(BackupVolumeName).min(1).max(50),
  /** `stop`: the running containers using these volumes are stopped for the copy and started after. */
  mode: CopyMode.default('live'),
});
/** A compose project: its folder (with `.env`) and the named volumes its services use. */
export const ProjectTarget = z.object({
  kind: z.literal('project'),
  project: ProjectName,
  /** `stop`: the project's running containers are stopped for the copy and started after, even on failure. */
  mode: CopyMode.default('live'),
});
/**
 * Berth itself: a consistent copy of `berth.db` (SQLite's online backup), the key files, and
 * optionally the stats history. The archive holds secrets (signing key, sealed credentials).
 */
export const BerthTarget = z.object({
  kind: z.literal('berth'),
  include_stats: z.boolean().default(false),
});
export const BackupTarget = z.discriminatedUnion('kind', [VolumesTarget, ProjectTarget, BerthTarget]);
export type BackupTarget = z.infer<typeof BackupTarget>;

/** Said on every Berth target and archive. */
export const BERTH_ARCHIVE_WARNING =
  "This archive holds Berth's secrets: its signing key and every credential it keeps (sealed under that key). Keep it encrypted and private. A Berth run with SECRET_KEY has no key file to copy: start the restored one with the same SECRET_KEY.";

/** An S3-compatible bucket (AWS, MinIO, Ceph, Garage, …). The secret key is write-only. */
export const NewS3Destination = z.object({
  kind: z.literal('s3'),
  name: z.string().trim().min(1).max(80),
  /** Empty for AWS; `https://minio.example:9000` for another service. */
  endpoint: z
    .string()
    .trim()
    .max(1024)
    .regex(/^(https?:\/\/[^\s/?#]+(\/[^\s?#]*)?)?$/, 'must be an http(s) URL')
    .optional(),
  region: z.string().trim().min(1).max(64).default('us-east-1'),
  bucket: z
    .string()
    .trim()
    .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be a bucket name'),
  /** Keys are `<prefix>/<archive>`; empty for the bucket's root. */
  prefix: z
    .string()
    .trim()
    .max(512)
    .regex(/^[A-Za-z0-9!_.*'()/-]*$/, "letters, digits, / and !_.*'()- only")
    .default(''),
  access_key_id: z.string().trim().min(1).max(256),
  secret_access_key: z.string().min(1).max(1024),
  /**
   * How the bucket is addressed: `path` (`endpoint/bucket/key`, what MinIO, Ceph, Garage and most
   * self-hosted servers want), `virtual` (`bucket.endpoint/key`, AWS), or `auto`: path for a custom
   * endpoint, virtual for AWS.
   */
  addressing: z.enum(['auto', 'path', 'virtual']).default('auto'),
});

const RestoreCommon = {
  archive_id: z.number().int(),
  /** For an encrypted archive; default the job's own. */
  passphrase: z.string().min(1).max(1024).optional(),
};
/** Restores a project archive: its folder into COMPOSE_DIR and its volumes, under the same names. */
export const ProjectRestoreBody = z.object({
  kind: z.literal('project'),
  ...RestoreCommon,
  /** The project to restore into; default the archive's own. */
  project: ProjectName.optional(),
  /** Replace an existing project folder and volumes (its containers are stopped first and started after). */
  overwrite: z.boolean().default(false),
});
/** Restores a Berth archive into a new, empty folder on Berth's host: a data folder to start Berth on. */
export const BerthRestoreBody = z.object({
  kind: z.literal('berth'),
  ...RestoreCommon,
  into_dir: z.string().trim().min(1).max(1024).regex(/^\//, 'must be an absolute path'),
});
export type ProjectRestoreBody = z.infer<typeof ProjectRestoreBody>;
export type BerthRestoreBody = z.infer<typeof BerthRestoreBody>;

/** One part of an archive put back. */
export const RestoredSection = z.object({
  /** `volumes/<name>`, `project` or `berth`. */
  section: z.string(),
  /** The volume, project or folder written. */
  into: z.string(),
  verified: z.boolean(),
});
export type RestoredSection = z.infer<typeof RestoredSection>;
