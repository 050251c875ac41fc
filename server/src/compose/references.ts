import path from 'node:path';
import { ValidationError } from '../errors';

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

/** Refuses a file whose include/extends/env_file/build/secrets/configs paths leave the project folder. */
export function checkFileReferences(data: Record<string, unknown>): void {
  const root = path.resolve('/project');
  const outside = fileReferences(data).filter(({ value }) => {
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) return true; // remote includes and build contexts fetch from elsewhere
    if (path.isAbsolute(value) || value.startsWith('~')) return true;
    const resolved = path.resolve(root, value);
    return resolved !== root && !resolved.startsWith(root + path.sep);
  });
  if (!outside.length) return;
  const fields = outside.map(({ where, value }) => ({ field: where, message: `${value} is outside the project folder` }));
  throw new ValidationError(
    `The compose file refers to files outside its project folder (${fields.map((f) => `${f.field}: ${outside.find((o) => o.where === f.field)?.value}`).join('; ')}). Keep included, extended, env, build and secret files inside the project folder.`,
    fields,
  );
}
