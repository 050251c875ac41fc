import fs from 'node:fs';
import path from 'node:path';
import type {
  BackupManifest,
  BackupRun,
  BerthRestoreBody,
  ProjectRestoreBody,
  RestoreResult,
  RestoredSection,
  VolumeRestoreBody,
} from '@berth/contract';
import { resolveProject } from '../../compose/paths';
import type { ArchiveRow } from '../../db/backups-repo';
import { ConflictError, NotFoundError, ValidationError } from '../../errors';
import { folderSection, folderSink } from './folder-archive';
import type { OnRestoreProgress } from './restore-progress';
import { PROJECT_LABEL, withStopped } from './targets';
import type { TreeSummary } from './tree-hash';
import { emptyVolume, volumeSink, type SectionSink, type VolumeAccess } from './volume-archive';

type Unpacked = Map<string, { archived: TreeSummary; written: TreeSummary | null }>;

/** What a restore borrows from the backups service, for one restore followed by an optional listener. */
export interface RestoreKit {
  archive: ArchiveRow;
  manifest: BackupManifest;
  /** Tells the follower a phase that reads nothing (stopping, starting). */
  progress(phase: 'stopping' | 'starting'): void;
  /** Reads the archive (the passphrase given, or the job's), handing sections to sinks; answers its sha256. */
  unpack(
    open: (section: string) => Promise<SectionSink | null>,
    phase: 'checking' | 'writing',
  ): Promise<{ results: Unpacked; sha256: string }>;
  /** Records `work` as a restore run. */
  recorded(work: () => Promise<{ bytes: number | null; archive: string | null }>): Promise<BackupRun>;
}
type KitOf = (onProgress?: OnRestoreProgress) => RestoreKit;
/** A restore checked and ready: run it, optionally followed. */
export type Restore = (onProgress?: OnRestoreProgress) => Promise<RestoreResult>;

/** The stop and start of containers around a restore, as progress phases. */
const told = (kit: RestoreKit) => ({
  stopping: () => kit.progress('stopping'),
  starting: () => kit.progress('starting'),
});

const same = (a: TreeSummary | null | undefined, b: TreeSummary) => !!a && a.sha256 === b.sha256 && a.files === b.files;
const EMPTY: TreeSummary = { entries: 0, files: 0, bytes: 0, sha256: '' };

/** Reads the whole archive once before anything is touched: a wrong passphrase or a changed byte stops here. */
async function precheck(kit: RestoreKit): Promise<void> {
  const { sha256 } = await kit.unpack(async () => null, 'checking');
  if (sha256 !== kit.manifest.archive.sha256)
    throw new ValidationError('The archive differs from its manifest (sha256).');
}

function answer(run: BackupRun, into: string, restored: RestoredSection[], tree: TreeSummary | null): RestoreResult {
  if (run.outcome === 'failed') throw new ValidationError(`Restore failed: ${run.error ?? 'unknown error'}`);
  return {
    run,
    volume: into,
    verified: restored.length > 0 && restored.every((r) => r.verified),
    tree: tree ?? EMPTY,
    restored,
  };
}

const volumeExists = (access: VolumeAccess, name: string) =>
  access.docker.inspectVolume(name).then(
    () => true,
    (err: unknown) => (err instanceof NotFoundError ? false : Promise.reject(err)),
  );

/** One volume of an archive into a new volume, or over an existing one (its running users stopped, started after). */
export async function restoreVolume(kitOf: KitOf, access: VolumeAccess, body: VolumeRestoreBody): Promise<Restore> {
  const entry = kitOf().manifest.volumes.find((v) => v.name === body.volume);
  if (!entry) throw new NotFoundError('volume in this archive', body.volume);
  const exists = await volumeExists(access, body.into);
  if (exists && !body.overwrite)
    throw new ConflictError(`Volume ${body.into} exists: confirm overwriting it, or restore into a new volume.`);
  return async (onProgress) => {
    const kit = kitOf(onProgress);
    let tree: TreeSummary | null = null;
    const run = await kit.recorded(async () => {
      await precheck(kit);
      const users = exists ? await access.docker.listContainers({ all: true, filters: { volume: [body.into] } }) : [];
      const write = async () => {
        if (exists) await emptyVolume(access, body.into);
        else await access.docker.createVolume(body.into);
        const sink = async (s: string) => (s === body.volume ? volumeSink(access, body.into) : null);
        tree = (await kit.unpack(sink, 'writing')).results.get(body.volume)?.written ?? null;
      };
      await withStopped(access, users, write, told(kit));
      return { bytes: kit.archive.bytes, archive: kit.archive.name };
    });
    const section = `volumes/${body.volume}`;
    return answer(run, body.into, [{ section, into: body.into, verified: same(tree, entry) }], tree);
  };
}

/**
 * A project archive put back: its folder into COMPOSE_DIR and its volumes, under the project's
 * name or another one (volumes named `<project>_…` follow the new name). Existing ones are replaced
 * only with `overwrite`, with the project's containers (and any other user of those volumes)
 * stopped first and started after.
 */
export async function restoreProject(
  kitOf: KitOf,
  access: VolumeAccess & { composeDir: string },
  body: ProjectRestoreBody,
): Promise<Restore> {
  const { manifest } = kitOf();
  if (manifest.target?.kind !== 'project') throw new ValidationError('This archive is not a project backup.');
  const from = manifest.target.project;
  const project = body.project ?? from;
  const p = await resolveProject(access.composeDir, project, { createRoot: true });
  const rename = (v: string) =>
    project !== from && v.startsWith(`${from}_`) ? `${project}_${v.slice(from.length + 1)}` : v;
  const volumes = manifest.volumes.map((v) => ({ ...v, into: rename(v.name) }));
  const present: string[] = p.exists ? [`folder ${project}`] : [];
  const exists = new Set<string>();
  for (const v of volumes) {
    if (await volumeExists(access, v.into)) {
      exists.add(v.into);
      present.push(`volume ${v.into}`);
    }
  }
  if (present.length && !body.overwrite)
    throw new ConflictError(
      `${present.join(', ')} exist: confirm overwriting them, or restore under another project name.`,
    );
  return async (onProgress) => {
    const kit = kitOf(onProgress);
    const restored: RestoredSection[] = [];
    let tree: TreeSummary | null = null;
    const run = await kit.recorded(async () => {
      await precheck(kit);
      const label = { label: [`${PROJECT_LABEL}=${project}`] };
      const byProject = await access.docker.listContainers({ all: true, filters: label });
      const byVolume = exists.size
        ? await access.docker.listContainers({ all: true, filters: { volume: [...exists] } })
        : [];
      const users = [...new Map([...byProject, ...byVolume].map((c) => [c.Id, c])).values()];
      const write = async () => {
        if (p.exists) await fs.promises.rm(p.folder, { recursive: true, force: true });
        for (const v of volumes) {
          if (exists.has(v.into)) await emptyVolume(access, v.into);
          else await access.docker.createVolume(v.into);
        }
        const sink = async (section: string) => {
          if (section === folderSection('project')) return folderSink(p.folder);
          const v = volumes.find((x) => x.name === section);
          return v ? volumeSink(access, v.into) : null;
        };
        const { results } = await kit.unpack(sink, 'writing');
        for (const f of manifest.folders ?? []) {
          tree = results.get(folderSection(f.name))?.written ?? null;
          restored.push({ section: 'project', into: p.folder, verified: same(tree, f) });
        }
        for (const v of volumes) {
          const verified = same(results.get(v.name)?.written, v);
          restored.push({ section: `volumes/${v.name}`, into: v.into, verified });
        }
      };
      await withStopped(access, users, write, told(kit));
      return { bytes: kit.archive.bytes, archive: kit.archive.name };
    });
    return answer(run, project, restored, tree);
  };
}

const inside = (child: string, parent: string) => {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
};

/**
 * A Berth archive put into a new (or empty) folder on Berth's host: a data folder another Berth
 * starts on (`DATA_DIR=<folder>`), never the running one.
 */
export async function restoreBerth(kitOf: KitOf, dataDir: string, body: BerthRestoreBody): Promise<Restore> {
  const { manifest } = kitOf();
  if (manifest.target?.kind !== 'berth')
    throw new ValidationError("This archive is not a backup of Berth's own files.");
  const into = path.resolve(body.into_dir);
  if (inside(into, dataDir) || inside(dataDir, into))
    throw new ValidationError(`The folder must be outside the running Berth's data folder (${dataDir}).`, [
      { field: 'into_dir', message: "inside or around Berth's data folder" },
    ]);
  const entries = await fs.promises.readdir(into).catch(() => null);
  if (entries && entries.length) throw new ConflictError(`${into} is not empty: restore into a new or empty folder.`);
  const berth = manifest.folders?.find((f) => f.name === 'berth');
  if (!berth) throw new ValidationError('This archive holds no Berth files.');
  return async (onProgress) => {
    const kit = kitOf(onProgress);
    let tree: TreeSummary | null = null;
    const run = await kit.recorded(async () => {
      await precheck(kit);
      const sink = async (section: string) => (section === folderSection('berth') ? folderSink(into) : null);
      tree = (await kit.unpack(sink, 'writing')).results.get(folderSection('berth'))?.written ?? null;
      return { bytes: kit.archive.bytes, archive: kit.archive.name };
    });
    return answer(run, into, [{ section: 'berth', into, verified: same(tree, berth) }], tree);
  };
}
