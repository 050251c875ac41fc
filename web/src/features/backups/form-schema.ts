/**
 * Forms generated from the contract's zod unions (destinations, job targets): each variant of a
 * union discriminated by `kind` becomes a list of inputs, so a kind added to the contract (an S3
 * destination, a project or Berth target) gets its form with at most a label here.
 */

/** One input of a generated form. `volumes` and `project` are pickers of the job's environment. */
export interface FieldSpec {
  key: string;
  label: string;
  input: 'text' | 'secret' | 'multiline' | 'number' | 'checkbox' | 'select' | 'volumes' | 'project';
  required: boolean;
  defaultValue: FieldValue;
  options?: string[];
  description?: string;
}
export type FieldValue = string | boolean | string[];
export type FieldValues = Record<string, FieldValue>;

const LABELS: Record<string, string> = {
  path: 'Folder',
  host_key: 'Host key (pinned)',
  private_key: 'Private key',
  username: 'User',
  access_key_id: 'Access key ID',
  secret_access_key: 'Secret access key',
  include_stats: 'Include the stats history',
  mode: 'Copy',
};
const DESCRIPTIONS: Record<string, string> = {
  path: 'An absolute path: on Berth’s host for a folder, on the server for SFTP.',
  host_key: 'The server’s key line, as `ssh-keyscan` prints it without the host: ssh-ed25519 AAAA…',
  password: 'Stored sealed; never shown again.',
  private_key: 'Stored sealed; never shown again.',
  secret_access_key: 'Stored sealed; never shown again.',
  endpoint: 'Empty for AWS; e.g. https://minio.example:9000 for another S3 service.',
  prefix: 'Archives are kept as <prefix>/<archive>; empty for the bucket’s root.',
  mode: 'live: copied as it runs. stop: the containers using it are stopped for the copy and started after — choose stop for databases, whose files copied live may not open.',
};
const KIND_LABELS: Record<string, string> = {
  folder: 'Folder on this host',
  sftp: 'SFTP',
  s3: 'S3-compatible bucket',
  volumes: 'Volumes',
  project: 'Project',
  berth: 'Berth itself',
};

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
/** A zod discriminated union by `kind`, as far as the form reads it. */
export interface KindUnion {
  options: readonly unknown[];
}
type Variant = { shape: Record<string, Schema> };

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
  if (key === 'volumes' && type === 'array') return 'volumes';
  if (key === 'project') return 'project';
  if (type === 'number') return 'number';
  if (type === 'boolean') return 'checkbox';
  if (type === 'enum') return 'select';
  if (/password|secret|passphrase/.test(key)) return 'secret';
  if (/private_key|host_key|certificate/.test(key) || (inner.maxLength ?? 0) > 1024) return 'multiline';
  return 'text';
}

const variants = (union: KindUnion) => union.options as Variant[];
const kindOf = (v: Variant) => String(v.shape.kind!.def.values![0]);

/** Every kind of a union, in the contract's order. */
export function unionKinds(union: KindUnion): string[] {
  return variants(union).map(kindOf);
}

/** The inputs of one kind of a union (its `kind` aside). */
export function unionFields(union: KindUnion, kind: string): FieldSpec[] {
  const variant = variants(union).find((v) => kindOf(v) === kind);
  if (!variant) return [];
  return Object.entries(variant.shape)
    .filter(([key]) => key !== 'kind')
    .map(([key, schema]) => {
      const { inner, optional, defaultValue } = unwrap(schema);
      const input = inputOf(key, inner);
      const options = input === 'select' ? Object.values(inner.def.entries ?? {}) : undefined;
      const description = schema.description ?? inner.description ?? DESCRIPTIONS[key];
      const empty = input === 'checkbox' ? false : input === 'volumes' ? [] : '';
      return {
        key,
        label: LABELS[key] ?? humanize(key),
        input,
        required: !optional,
        defaultValue:
          defaultValue === undefined ? empty : typeof defaultValue === 'boolean' ? defaultValue : String(defaultValue),
        ...(options ? { options } : {}),
        ...(description ? { description } : {}),
      };
    });
}

/** The body to send: numbers as numbers, empty optional fields left out (the server's default applies). */
export function unionBody(kind: string, fields: FieldSpec[], values: FieldValues): Record<string, unknown> {
  const body: Record<string, unknown> = { kind };
  for (const f of fields) {
    const v = values[f.key] ?? f.defaultValue;
    if (typeof v === 'boolean' || Array.isArray(v)) body[f.key] = v;
    else if (v.trim() === '' && !f.required) continue;
    else body[f.key] = f.input === 'number' ? Number(v) : f.input === 'secret' ? v : v.trim();
  }
  return body;
}

/** The form's values of an object the union made (a job's stored target), for editing it. */
export function valuesOf(fields: FieldSpec[], stored: Record<string, unknown>): FieldValues {
  const values: FieldValues = {};
  for (const f of fields) {
    const v = stored[f.key];
    if (v !== undefined && v !== null) values[f.key] = typeof v === 'boolean' || Array.isArray(v) ? v : String(v);
  }
  return values;
}
