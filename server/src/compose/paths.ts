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
  /** The folder compose runs in: the project's folder, or for a git-backed project the compose file's folder in its checkout. */
  dir: string;
  /** The project's own folder under COMPOSE_DIR (what a delete removes). */
  folder: string;
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
  if (!st) return { name, root, dir, folder: dir, exists: false, file: null };
  if (st.isSymbolicLink())
    throw new ValidationError(
      `Project folder ${name} is a symbolic link; Berth does not follow links out of COMPOSE_DIR.`,
    );
  if (!st.isDirectory()) throw new ValidationError(`${name} in COMPOSE_DIR is not a folder.`);
  const real = await fs.realpath(dir);
  if (path.dirname(real) !== root) throw new ValidationError(`Project folder ${name} resolves outside COMPOSE_DIR.`);
  const git = await gitComposeFile(dir);
  if (git) return { name, root, dir: path.dirname(git), folder: dir, exists: true, file: git };
  return { name, root, dir, folder: dir, exists: true, file: await findComposeFile(dir) };
}

/** A project folder's compose file: the one its git checkout names, else the first usual name found. */
export async function projectComposeFile(folder: string): Promise<string | null> {
  return (await gitComposeFile(folder)) ?? (await findComposeFile(folder));
}

/** Where a git-backed project's checkout names its compose file (a path in the repository). */
export const GIT_COMPOSE_MARKER = path.join('.git', 'berth-compose');

/**
 * A git-backed project's compose file: the repository path its marker names, inside the folder,
 * through no link (git checks links out as plain files here, and a link is refused anyway); null
 * for a project that is not from git.
 */
export async function gitComposeFile(folder: string): Promise<string | null> {
  const marker = await fs.readFile(path.join(folder, GIT_COMPOSE_MARKER), 'utf8').catch(() => null);
  if (marker === null) return null;
  const rel = marker.trim();
  const parts = rel.split('/');
  if (!rel || path.isAbsolute(rel) || parts.some((p) => p === '..' || p === '.' || p === '' || p === '.git'))
    throw new ValidationError(`The git checkout of ${path.basename(folder)} names an invalid compose file path.`);
  let at = folder;
  for (const part of parts) {
    at = path.join(at, part);
    const st = await lstatOrNull(at);
    if (st?.isSymbolicLink())
      throw new ValidationError(
        `${rel} in ${path.basename(folder)} passes through a symbolic link; Berth only reads real files.`,
      );
    if (!st) throw new ValidationError(`${rel} is not in the checkout of ${path.basename(folder)}.`);
  }
  return at;
}
