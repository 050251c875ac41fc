import path from 'node:path';
import { ValidationError } from '../errors';
import { interpolate, InterpolationError } from './interpolate';

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Paths a compose file makes the CLI read. Saved through the API, a file could otherwise make
 * the CLI read (and the engine receive) any file on the host: /etc/shadow as an env_file, a
 * private key as a secret, / as a build context.
 */
function fileReferences(data: Record<string, unknown>): { where: string; value: string }[] {
  const refs: { where: string; value: string }[] = [];
  const add = (where: string, value: unknown) => {
    if (typeof value === 'string') refs.push({ where, value });
  };
  const include = data.include;
  if (Array.isArray(include)) {
    include.forEach((item, i) => {
      if (typeof item === 'string') add(`include[${i}]`, item);
      else if (isRecord(item)) {
        const paths = Array.isArray(item.path) ? item.path : [item.path];
        paths.forEach((p, j) => add(`include[${i}].path${paths.length > 1 ? `[${j}]` : ''}`, p));
        add(`include[${i}].project_directory`, item.project_directory);
        const envFiles = Array.isArray(item.env_file) ? item.env_file : [item.env_file];
        envFiles.forEach((p) => add(`include[${i}].env_file`, p));
      }
    });
  }
  if (isRecord(data.services)) {
    for (const [name, svc] of Object.entries(data.services)) {
      if (!isRecord(svc)) continue;
      if (isRecord(svc.extends)) add(`services.${name}.extends.file`, svc.extends.file);
      const envFiles = Array.isArray(svc.env_file) ? svc.env_file : [svc.env_file];
      envFiles.forEach((f) => add(`services.${name}.env_file`, isRecord(f) ? f.path : f));
      if (typeof svc.build === 'string') add(`services.${name}.build`, svc.build);
      else if (isRecord(svc.build)) {
        add(`services.${name}.build.context`, svc.build.context);
        add(`services.${name}.build.dockerfile`, svc.build.dockerfile);
      }
    }
  }
  for (const kind of ['secrets', 'configs'] as const) {
    const section = data[kind];
    if (!isRecord(section)) continue;
    for (const [name, def] of Object.entries(section)) if (isRecord(def)) add(`${kind}.${name}.file`, def.file);
  }
  return refs;
}

/** Why a path (as the CLI will read it, after interpolation) is refused, or null. */
function problemOf(raw: string, env: Readonly<Record<string, string>>): { value: string; problem: string } | null {
  let value: string;
  try {
    value = interpolate(raw, env);
  } catch (err) {
    if (err instanceof InterpolationError) return { value: raw, problem: err.message };
    throw err;
  }
  const shown = value === raw ? raw : `${raw} (= ${value})`;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) return { value: shown, problem: `${shown} is fetched from elsewhere` };
  if (path.isAbsolute(value) || value.startsWith('~'))
    return { value: shown, problem: `${shown} is outside the project folder` };
  const root = path.resolve('/project');
  const resolved = path.resolve(root, value);
  if (resolved !== root && !resolved.startsWith(root + path.sep))
    return { value: shown, problem: `${shown} is outside the project folder` };
  return null;
}

/**
 * Refuses a file whose include/extends/env_file/build/secrets/configs paths leave the project
 * folder, judged after interpolation with the environment compose will use (`env`: the CLI's
 * environment over the project's .env). `data` must come from a parse that honours merge keys.
 */
export function checkFileReferences(data: Record<string, unknown>, env: Readonly<Record<string, string>> = {}): void {
  const outside = fileReferences(data).flatMap(({ where, value }) => {
    const p = problemOf(value, env);
    return p ? [{ where, ...p }] : [];
  });
  if (!outside.length) return;
  const fields = outside.map(({ where, problem }) => ({ field: where, message: problem }));
  throw new ValidationError(
    `The compose file refers to files outside its project folder (${outside.map((o) => `${o.where}: ${o.problem}`).join('; ')}). Keep included, extended, env, build and secret files inside the project folder, named without variables that lead out of it.`,
    fields,
  );
}
