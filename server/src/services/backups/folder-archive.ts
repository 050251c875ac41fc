import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Transform } from 'node:stream';
import type * as tar from 'tar-stream';
import type { TarHeader } from '../files/tar';
import { addEntry, hashOnly } from './tar-entries';
import { TreeHasher, type TreeSummary } from './tree-hash';
import type { SectionSink } from './volume-archive';

/** Where a folder of Berth's host (a project's folder, Berth's own files) sits inside a backup archive. */
export const folderSection = (name: string) => `files/${name}`;

type Visit = (h: TarHeader, relative: string, body: () => NodeJS.ReadableStream | null) => Promise<void>;

/**
 * Walks `root` (itself first, then each folder's entries by name) as tar headers: folders, regular
 * files and symbolic links (sockets, pipes and devices are skipped); `body()` opens a file's data.
 */
async function walk(root: string, visit: Visit, only?: (relative: string) => boolean): Promise<void> {
  const one = async (relative: string): Promise<void> => {
    const at = relative ? path.join(root, relative) : root;
    const st = await fs.promises.lstat(at);
    const base = { mode: st.mode & 0o7777, uid: st.uid, gid: st.gid, mtime: st.mtime };
    if (st.isDirectory()) {
      await visit({ ...base, name: relative, type: 'directory' }, relative, () => null);
      const names = (await fs.promises.readdir(at)).sort();
      for (const n of names) {
        const child = relative ? `${relative}/${n}` : n;
        if (!only || only(child)) await one(child);
      }
    } else if (st.isFile()) {
      await visit({ ...base, name: relative, type: 'file', size: st.size }, relative, () => fs.createReadStream(at));
    } else if (st.isSymbolicLink()) {
      const linkname = await fs.promises.readlink(at);
      await visit({ ...base, name: relative, type: 'symlink', linkname }, relative, () => null);
    }
  };
  await one('');
}

/**
 * Appends the folder `root` to `pack` under `files/<name>/` (streamed, file by file) and answers its
 * tree checksum. `only` picks which entries below the root are taken (default all).
 */
export async function packFolder(
  root: string,
  name: string,
  pack: tar.Pack,
  only?: (relative: string) => boolean,
): Promise<TreeSummary> {
  const hasher = new TreeHasher();
  const base = folderSection(name);
  await walk(
    root,
    async (h, relative, body) => {
      const { data, done } = hasher.add(h, relative);
      await addEntry(pack, { ...h, name: relative ? `${base}/${relative}` : base }, body(), data);
      done();
    },
    only,
  );
  return hasher.summary();
}

/** A folder's tree checksum as it is now. */
export async function folderTree(root: string): Promise<TreeSummary> {
  const hasher = new TreeHasher();
  await walk(root, async (h, relative, body) => {
    const { data, done } = hasher.add(h, relative);
    const stream = body();
    if (stream) await hashOnly(stream, data);
    done();
  });
  return hasher.summary();
}

/** `relative` inside `dir`, refusing a path that climbs out of it. */
function inside(dir: string, relative: string): string {
  const at = path.resolve(dir, relative);
  if (at !== dir && !at.startsWith(`${dir}/`)) throw new Error(`An archive entry leaves its folder: ${relative}`);
  return at;
}

/** Throws when `at` (or, not there yet, its nearest existing folder) is not inside `root` on disk: links resolved. */
async function realInside(root: string, at: string, relative: string): Promise<void> {
  let probe = at;
  let real: string | null = null;
  while ((real = await fs.promises.realpath(probe).catch(() => null)) === null && probe !== path.dirname(probe))
    probe = path.dirname(probe);
  if (real !== root && !real?.startsWith(`${root}/`))
    throw new Error(`An archive entry leads out of its folder through a link: ${relative}`);
}

/**
 * A sink writing a section's entries into the folder `dir` on Berth's host (made if missing):
 * folders, files, symbolic and hard links, with their modes and owners (owners where Berth may set
 * them). On close the folder is read back.
 */
export function folderSink(dir: string): SectionSink {
  const dirs: { at: string; h: TarHeader }[] = [];
  const own = async (at: string, h: TarHeader) => {
    // Only root may give files away; elsewhere they stay Berth's (and the tree check says so).
    await fs.promises.lchown(at, h.uid ?? 0, h.gid ?? 0).catch(() => undefined);
  };
  let root: string | null = null;
  // A symbolic link the archive made earlier must not carry a later entry out of `dir` (lexical checks cannot see it).
  const checked = async (at: string, relative: string) => {
    if (root === null) {
      await fs.promises.mkdir(dir, { recursive: true, mode: 0o700 });
      root = await fs.promises.realpath(dir);
    }
    await realInside(root, at, relative);
  };
  return {
    async entry(h, relative, body, hash) {
      const at = inside(dir, relative);
      const drain = () => void (body as NodeJS.ReadableStream & { resume(): void }).resume();
      // A folder is entered itself (made and later chmod-ed); anything else replaces what is at its name.
      await checked(h.type === 'directory' ? at : path.dirname(at), relative);
      if (h.type === 'directory') {
        await fs.promises.mkdir(at, { recursive: true, mode: 0o700 });
        dirs.push({ at, h });
        return drain();
      }
      await fs.promises.mkdir(path.dirname(at), { recursive: true, mode: 0o700 });
      await fs.promises.rm(at, { force: true });
      if (h.type === 'symlink') {
        await fs.promises.symlink(h.linkname ?? '', at);
        await own(at, h);
        return drain();
      }
      if (h.type === 'link') {
        const target = inside(dir, h.linkname ?? '');
        await checked(path.dirname(target), h.linkname ?? '');
        await fs.promises.link(target, at);
        return drain();
      }
      if (h.type !== 'file' && h.type !== 'contiguous-file') return drain();
      const tap = new Transform({
        transform(chunk: Buffer, _e, cb) {
          hash?.update(chunk);
          cb(null, chunk);
        },
      });
      await pipeline(body as NodeJS.ReadableStream, tap, fs.createWriteStream(at, { mode: 0o600 }));
      await own(at, h);
      await fs.promises.chmod(at, (h.mode ?? 0o600) & 0o7777);
      if (h.mtime) await fs.promises.utimes(at, h.mtime, h.mtime);
    },
    async close() {
      // Folder modes last, deepest first: a read-only folder is filled before it becomes one.
      for (const { at, h } of dirs.reverse()) {
        await own(at, h);
        await fs.promises.chmod(at, (h.mode ?? 0o700) & 0o7777);
      }
      return folderTree(dir);
    },
    async abort() {
      // What was written stays for the user to look at; the run says it failed.
    },
  };
}
