import fs from 'node:fs/promises';
import path from 'node:path';
import { PROJECT_NAME_PATTERN, PROJECT_NAME_RULE } from '@berth/contract';
import { ValidationError } from '../errors';

/** Looked for in this order; the first one found is the project's file. */
export const COMPOSE_FILE_NAMES = ['compose.yaml', 'compose.yml', 'docker-compose.yaml', 'docker-compose.yml'] as const;
/** The name a new project's file gets. */
export const NEW_COMPOSE_FILE = COMPOSE_FILE_NAMES[0];

export interface ProjectPaths {
  name: string;
  /** COMPOSE_DIR, resolved through any links (the root itself may be a link, e.g. /config → /mnt/x). */
  root: string;
  dir: string;
  /** Whether the folder exists (a real folder, never a link). */
  exists: boolean;
  /** The compose file found in the folder, or null. */
  file: string | null;
}

function fsCode(err: unknown): string | undefined {
  return (err as NodeJS.ErrnoException | null)?.code;
}

async function lstatOrNull(p: string) {
  try {
    return await fs.lstat(p);
  } catch (err) {
    if (fsCode(err) === 'ENOENT' || fsCode(err) === 'ENOTDIR') return null;
    throw err;
  }
}

export function checkProjectName(name: string): void {
  if (!PROJECT_NAME_PATTERN.test(name)) {
    const shown = name.length > 70 ? `${name.slice(0, 70)}…` : name;
    throw new ValidationError(`Invalid project name ${JSON.stringify(shown)}. ${PROJECT_NAME_RULE}`, [
      { field: 'name', message: PROJECT_NAME_RULE },
    ]);
  }
}

/** COMPOSE_DIR through its links; created on first use so a fresh install has somewhere to write. */
export async function composeRoot(composeDir: string, create = false): Promise<string | null> {
  if (create) await fs.mkdir(composeDir, { recursive: true });
  try {
    return await fs.realpath(composeDir);
  } catch (err) {
    if (fsCode(err) === 'ENOENT') return null;
    throw err;
  }
}

/** The first compose file in `dir`; a linked file is refused (it could point anywhere on the host). */
export async function findComposeFile(dir: string): Promise<string | null> {
  for (const f of COMPOSE_FILE_NAMES) {
    const p = path.join(dir, f);
    const st = await lstatOrNull(p);
    if (!st) continue;
    if (st.isSymbolicLink())
      throw new ValidationError(
        `${f} in project folder ${path.basename(dir)} is a symbolic link; Berth only reads real files.`,
      );
    if (st.isFile()) return p;
  }
  return null;
}

/**
 * The ONE resolver of a project's folder, used by every route: checks the name rule, refuses a
 * linked folder and anything whose real path leaves COMPOSE_DIR.
 */
export async function resolveProject(
  composeDir: string,
  name: string,
  opts: { createRoot?: boolean } = {},
): Promise<ProjectPaths> {
  checkProjectName(name);
  const root = (await composeRoot(composeDir, opts.createRoot)) ?? path.resolve(composeDir);
  const dir = path.join(root, name);
  const st = await lstatOrNull(dir);
  if (!st) return { name, root, dir, exists: false, file: null };
  if (st.isSymbolicLink())
    throw new ValidationError(
      `Project folder ${name} is a symbolic link; Berth does not follow links out of COMPOSE_DIR.`,
    );
  if (!st.isDirectory()) throw new ValidationError(`${name} in COMPOSE_DIR is not a folder.`);
  const real = await fs.realpath(dir);
  if (path.dirname(real) !== root) throw new ValidationError(`Project folder ${name} resolves outside COMPOSE_DIR.`);
  return { name, root, dir, exists: true, file: await findComposeFile(dir) };
}
