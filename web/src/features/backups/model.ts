import { NewBackupDestination, type BackupArchive, type BackupJob, type BackupRun } from '@berth/contract';

/** One input of a destination form, read from the contract's schema of that kind. */
export interface FieldSpec {
  key: string;
  label: string;
  input: 'text' | 'secret' | 'multiline' | 'number' | 'checkbox' | 'select';
  required: boolean;
  defaultValue: string | boolean;
  options?: string[];
  description?: string;
}

export type DestinationKind = NewBackupDestination['kind'];
type FieldValues = Record<string, string | boolean>;

const LABELS: Record<string, string> = {
  path: 'Folder',
  host_key: 'Host key (pinned)',
  private_key: 'Private key',
  username: 'User',
};
const DESCRIPTIONS: Record<string, string> = {
  path: 'An absolute path: on Berth’s host for a folder, on the server otherwise.',
  host_key: 'The server’s key line, as `ssh-keyscan` prints it without the host: ssh-ed25519 AAAA…',
  password: 'Stored sealed; never shown again.',
  private_key: 'Stored sealed; never shown again.',
};
const KIND_LABELS: Record<string, string> = { folder: 'Folder on this host', sftp: 'SFTP', s3: 'S3-compatible bucket' };

const humanize = (key: string) => key.charAt(0).toUpperCase() + key.slice(1).replace(/_/g, ' ');
export const kindLabel = (kind: string) => KIND_LABELS[kind] ?? humanize(kind);

interface Def {
  type: string;
  innerType?: Schema;
  defaultValue?: unknown;
  values?: unknown[];
  entries?: Record<string, string>;
}
interface Schema {
  def: Def;
  maxLength?: number | null;
  description?: string;
}

/** The field's own schema under optional and default wrappers, whether it may be left out, and its default. */
function unwrap(schema: Schema): { inner: Schema; optional: boolean; defaultValue: unknown } {
  let inner = schema;
  let optional = false;
  let defaultValue: unknown;
  while (inner.def.type === 'optional' || inner.def.type === 'default') {
    optional = true;
    if (inner.def.type === 'default') defaultValue = inner.def.defaultValue;
    inner = inner.def.innerType!;
  }
  return { inner, optional, defaultValue };
}

function inputOf(key: string, inner: Schema): FieldSpec['input'] {
  const type = inner.def.type;
  if (type === 'number') return 'number';
  if (type === 'boolean') return 'checkbox';
  if (type === 'enum') return 'select';
  if (/password|secret|passphrase/.test(key)) return 'secret';
  if (/_key$|certificate/.test(key) || (inner.maxLength ?? 0) > 1024) return 'multiline';
  return 'text';
}

const variants = () => NewBackupDestination.options as unknown as { shape: Record<string, Schema> }[];

/** Every destination kind the contract knows, in its order. */
export function destinationKinds(): DestinationKind[] {
  return variants().map((v) => v.shape.kind!.def.values![0] as DestinationKind);
}

/**
 * The form of one destination kind, generated from the contract (NewBackupDestination): a kind
 * added there (S3) gets its form here with no more than, at most, a label.
 */
export function destinationFields(kind: DestinationKind): FieldSpec[] {
  const variant = variants().find((v) => v.shape.kind!.def.values![0] === kind);
  if (!variant) return [];
  return Object.entries(variant.shape)
    .filter(([key]) => key !== 'kind')
    .map(([key, schema]) => {
      const { inner, optional, defaultValue } = unwrap(schema);
      const input = inputOf(key, inner);
      const options = input === 'select' ? Object.values(inner.def.entries ?? {}) : undefined;
      const description = schema.description ?? inner.description ?? DESCRIPTIONS[key];
      return {
        key,
        label: LABELS[key] ?? humanize(key),
        input,
        required: !optional,
        defaultValue:
          input === 'checkbox' ? Boolean(defaultValue) : defaultValue === undefined ? '' : String(defaultValue),
        ...(options ? { options } : {}),
        ...(description ? { description } : {}),
      };
    });
}

/** The body to send: numbers as numbers, empty optional fields left out (the server's default applies). */
export function destinationBody(kind: DestinationKind, fields: FieldSpec[], values: FieldValues): NewBackupDestination {
  const body: Record<string, unknown> = { kind };
  for (const f of fields) {
    const v = values[f.key] ?? f.defaultValue;
    if (f.input === 'checkbox') body[f.key] = Boolean(v);
    else if (String(v).trim() === '' && !f.required) continue;
    else body[f.key] = f.input === 'number' ? Number(v) : f.input === 'secret' ? String(v) : String(v).trim();
  }
  return body as NewBackupDestination;
}

/** What a job backs up, in words. */
export function jobTarget(job: Pick<BackupJob, 'volumes'>): string {
  return `${job.volumes.length === 1 ? 'Volume' : 'Volumes'} ${job.volumes.join(', ')}`;
}

/** The jobs of `env` that back up any of `volumes` (a volume's page: itself; a project's: its volumes). */
export function jobsCovering(jobs: readonly BackupJob[], env: string, volumes: readonly string[]): BackupJob[] {
  return jobs.filter((j) => j.environment === env && j.volumes.some((v) => volumes.includes(v)));
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
