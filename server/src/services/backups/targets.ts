import fs from 'node:fs';
import path from 'node:path';
import type * as tar from 'tar-stream';
import type { BackupManifest, BackupTarget } from '@berth/contract';
import { resolveProject } from '../../compose/paths';
import type { ContainerListEntry } from '../../docker/engine';
import { copySqlite } from '../../db/online-backup';
import { NotFoundError, ValidationError } from '../../errors';
import type { JobRow } from '../../db/backups-repo';
import { folderSection, packFolder } from './folder-archive';
import type { TreeSummary } from './tree-hash';
import { packVolume, type VolumeAccess } from './volume-archive';

export const PROJECT_LABEL = 'com.docker.compose.project';
/** What a Berth archive holds under `files/berth/`: the database, its keys, and optionally the stats history. */
export const BERTH_FILES = { db: 'berth.db', keys: 'keys', stats: 'stats-history.db' } as const;

export type Named = TreeSummary & { name: string };

/** A new or changed job's target (`volumes` is shorthand for a target of volumes); a project's folder must exist. */
export async function jobTarget(
  body: { target?: BackupTarget; volumes?: string[] },
  access: { composeDir: string },
): Promise<BackupTarget> {
  const target =
    body.target ?? (body.volumes ? { kind: 'volumes' as const, volumes: body.volumes, mode: 'live' as const } : null);
  if (!target)
    throw new ValidationError('Say what to back up: volumes or a target.', [
      { field: 'target', message: 'volumes, a project or Berth' },
    ]);
  if (target.kind === 'project') await projectFolder(access.composeDir, target.project);
  return target;
}

/** A job's target; a job of volumes made before targets has only its volumes column. */
export function targetOf(job: Pick<JobRow, 'target' | 'volumes'>): BackupTarget {
  if (job.target) return JSON.parse(job.target) as BackupTarget;
  return { kind: 'volumes', volumes: JSON.parse(job.volumes) as string[], mode: 'live' };
}

/** What a target is called in messages and archive names. */
export function targetLabel(t: BackupTarget): string {
  if (t.kind === 'volumes') return t.volumes.join(', ');
  return t.kind === 'project' ? `project ${t.project}` : 'Berth';
}

/** The project's folder (which must exist) under this environment's COMPOSE_DIR. */
export async function projectFolder(composeDir: string, project: string): Promise<string> {
  const p = await resolveProject(composeDir, project);
  if (!p.exists) throw new NotFoundError('project', project);
  return p.folder;
}

/** The named volumes a project's services use: those compose made for it, and those its containers mount. */
export async function projectVolumes({ docker }: VolumeAccess, project: string): Promise<string[]> {
  const names = new Set<string>();
  for (const v of await docker.listVolumes()) if (v.Labels?.[PROJECT_LABEL] === project) names.add(v.Name);
  const containers = await docker.listContainers({ all: true, filters: { label: [`${PROJECT_LABEL}=${project}`] } });
  for (const c of containers) for (const m of c.Mounts ?? []) if (m.Type === 'volume' && m.Name) names.add(m.Name);
  return [...names].sort();
}

/**
 * Runs `fn` with the given containers' running ones stopped, and starts them again afterwards, in
 * the order they were made, whether `fn` succeeded or not. A container that does not start again
 * fails the run (after every other one was started).
 */
export async function withStopped<T>(
  { docker }: VolumeAccess,
  containers: ContainerListEntry[],
  fn: () => Promise<T>,
  told?: { stopping(): void; starting(): void },
): Promise<T> {
  const running = containers.filter((c) => c.State === 'running').sort((a, b) => a.Created - b.Created);
  const stopped: ContainerListEntry[] = [];
  let result: T;
  try {
    if (running.length) told?.stopping();
    for (const c of running) {
      await docker.stopContainer(c.Id);
      stopped.push(c);
    }
    result = await fn();
  } finally {
    const failed: string[] = [];
    if (stopped.length) told?.starting();
    for (const c of stopped) await docker.startContainer(c.Id).catch(() => failed.push(c.Names[0] ?? c.Id));
    if (failed.length) throw new Error(`Stopped for the copy, ${failed.join(', ')} did not start again.`);
  }
  return result;
}

/** The containers a target's copy stops in `stop` mode (running or not; only running ones are stopped). */
async function usersOf(access: VolumeAccess, target: BackupTarget, volumes: string[]): Promise<ContainerListEntry[]> {
  if (target.kind === 'project')
    return access.docker.listContainers({ all: true, filters: { label: [`${PROJECT_LABEL}=${target.project}`] } });
  if (!volumes.length) return [];
  return access.docker.listContainers({ all: true, filters: { volume: volumes } });
}

export interface PackContext {
  access: VolumeAccess;
  /** This environment's COMPOSE_DIR. */
  composeDir: string;
  /** Berth's data folder (a Berth target). */
  dataDir: string;
  /** The destination's folder on Berth's host, for a folder destination: refused inside a volume backed up. */
  destinationFolder: string | null;
}

/**
 * Writes a target into `pack`: its volumes under `volumes/<name>/`, its folders under
 * `files/<name>/`, with the project's (or the volumes') containers stopped around the copy in
 * `stop` mode. Answers what the manifest records.
 */
export async function packTarget(
  c: PackContext,
  target: BackupTarget,
  pack: tar.Pack,
): Promise<Pick<BackupManifest, 'volumes' | 'folders'>> {
  if (target.kind === 'berth')
    return { volumes: [], folders: [await packBerth(c.dataDir, target.include_stats, pack)] };
  const folder = target.kind === 'project' ? await projectFolder(c.composeDir, target.project) : null;
  const volumes = target.kind === 'project' ? await projectVolumes(c.access, target.project) : target.volumes;
  if (c.destinationFolder) {
    for (const v of volumes) {
      const mount = (await c.access.docker.inspectVolume(v)).Mountpoint;
      if (c.destinationFolder === mount || c.destinationFolder.startsWith(`${mount}/`))
        throw new ValidationError(`The destination folder is inside volume ${v}, which this job backs up.`);
    }
  }
  const copy = async () => {
    const folders: Named[] = folder ? [{ name: 'project', ...(await packFolder(folder, 'project', pack)) }] : [];
    const out: Named[] = [];
    for (const v of volumes) out.push({ name: v, ...(await packVolume(c.access, v, pack)) });
    return { volumes: out, folders };
  };
  return target.mode === 'stop' ? withStopped(c.access, await usersOf(c.access, target, volumes), copy) : copy();
}

/**
 * Berth's own files under `files/berth/`: a consistent copy of berth.db (and of the stats history
 * when asked) through SQLite's online backup, made in a private temporary folder and removed after,
 * and the keys folder as it is.
 */
async function packBerth(dataDir: string, includeStats: boolean, pack: tar.Pack): Promise<Named> {
  await fs.promises.mkdir(path.join(dataDir, '.tmp'), { recursive: true, mode: 0o700 });
  const tmp = await fs.promises.mkdtemp(path.join(dataDir, '.tmp', 'self-backup-'));
  try {
    await copySqlite(path.join(dataDir, BERTH_FILES.db), path.join(tmp, BERTH_FILES.db));
    const stats = path.join(dataDir, BERTH_FILES.stats);
    if (includeStats && fs.existsSync(stats)) await copySqlite(stats, path.join(tmp, BERTH_FILES.stats));
    const keys = path.join(dataDir, BERTH_FILES.keys);
    if (fs.existsSync(keys)) await fs.promises.cp(keys, path.join(tmp, BERTH_FILES.keys), { recursive: true });
    for (const f of await fs.promises.readdir(tmp))
      await fs.promises.chmod(path.join(tmp, f), f === 'keys' ? 0o700 : 0o600);
    return { name: 'berth', ...(await packFolder(tmp, 'berth', pack)) };
  } finally {
    await fs.promises.rm(tmp, { recursive: true, force: true });
  }
}

/** A drill's check of the folders an archive holds: each one read from it hashes as its manifest says. */
export function checkFolders(
  manifest: BackupManifest,
  results: Map<string, { archived: TreeSummary; written: TreeSummary | null }>,
): void {
  for (const f of manifest.folders ?? []) {
    const got = results.get(folderSection(f.name))?.archived;
    if (!got) throw new Error(`Folder ${f.name} is missing from the archive.`);
    if (got.files !== f.files || got.sha256 !== f.sha256)
      throw new Error(
        `Folder ${f.name} reads differently: ${got.files} files (manifest ${f.files}), tree checksum differs.`,
      );
  }
}
