import { createReadStream, createWriteStream } from 'node:fs';
import { lstat, mkdtemp, readdir, readFile, readlink, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, posix, relative, resolve, sep } from 'node:path';
import { PassThrough, Readable, Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import type * as tar from 'tar-stream';
import { DOCKERFILE_MAX_CHARS, IMAGE_UPLOAD_MAX_BYTES } from '@berth/contract';
import { AppError, PayloadTooLargeError, ValidationError } from '../../errors';
import { tarStream } from '../files/tar';

/** A zip is unpacked to at most this many bytes and entries (a zip bomb stops there). */
export const ZIP_MAX_UNPACKED_BYTES = 4 * 1024 * 1024 * 1024;
export const ZIP_MAX_ENTRIES = 100_000;

/** A build context ready for the engine: a tar stream and where its Dockerfile is. */
export interface PreparedContext {
  stream: Readable;
  dockerfile: string;
  /** Settles once the context has been produced to its end (rejects with why it could not be). */
  done: Promise<void>;
  /** Removes what was spooled to disk (a zip); safe to call twice. */
  cleanup: () => Promise<void>;
}

export interface ContextInput {
  /** The uploaded archive, as it arrives. */
  upload?: NodeJS.ReadableStream;
  /** A typed Dockerfile (added to the context under a name of its own). */
  dockerfile?: string;
  /** Where the context's own Dockerfile is (when none is typed). */
  dockerfilePath?: string;
}

/** Counts bytes through, failing beyond `max` (with `message`). */
export function capped(max: number, message: string): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _enc, cb: TransformCallback) {
      seen += chunk.length;
      if (seen > max) cb(new PayloadTooLargeError(message));
      else cb(null, chunk);
    },
  });
}

export const UPLOAD_TOO_LARGE = `An upload is at most ${IMAGE_UPLOAD_MAX_BYTES / 1024 ** 3} GiB.`;

/** Reads the first bytes of a stream and answers them with a stream of everything (those bytes included). */
async function peek(input: NodeJS.ReadableStream, n: number): Promise<{ head: Buffer; all: Readable }> {
  const source = Readable.from(input as AsyncIterable<Buffer>);
  const chunks: Buffer[] = [];
  let size = 0;
  const it = source[Symbol.asyncIterator]();
  while (size < n) {
    const next = await it.next();
    if (next.done) break;
    const chunk = Buffer.isBuffer(next.value) ? next.value : Buffer.from(next.value as string);
    chunks.push(chunk);
    size += chunk.length;
  }
  const head = Buffer.concat(chunks);
  async function* rest() {
    yield head;
    for (;;) {
      const next = await it.next();
      if (next.done) return;
      yield next.value as Buffer;
    }
  }
  return { head, all: Readable.from(rest(), { objectMode: false }) };
}

type Kind = 'tar' | 'gzip' | 'zip';

function kindOf(head: Buffer): Kind {
  if (head[0] === 0x1f && head[1] === 0x8b) return 'gzip';
  if (head[0] === 0x50 && head[1] === 0x4b && (head[2] === 3 || head[2] === 5)) return 'zip';
  if (head.length >= 262 && head.subarray(257, 262).toString('latin1') === 'ustar') return 'tar';
  throw new ValidationError('The context is not a .tar, .tar.gz or .zip archive.', [
    { field: 'context', message: 'Upload a .tar, .tar.gz or .zip.' },
  ]);
}

/** The name the typed Dockerfile gets in the context (one no project file is likely to have). */
const TYPED_DOCKERFILE = '.berth.Dockerfile';

function dockerfileEntry(pack: tar.Pack, text: string): void {
  pack.entry({ name: TYPED_DOCKERFILE, mode: 0o644, mtime: new Date(0) }, Buffer.from(text, 'utf8'));
}

function gunzip(source: Readable): Readable {
  const out = createGunzip();
  source.on('error', (err) => out.destroy(err));
  return source.pipe(out);
}

/** Copies a tar's entries into `pack` (entry by entry: never held whole). */
async function copyTar(source: Readable, pack: tar.Pack): Promise<void> {
  const extract = (await tarStream()).extract();
  const feeding = pipeline(source, extract);
  for await (const entry of extract) {
    if (entry.header.name.replace(/^\.\//, '') === TYPED_DOCKERFILE) {
      entry.resume();
      continue;
    }
    await pipeline(entry, pack.entry({ ...entry.header }));
  }
  await feeding;
}

/** A zip's entries into `pack`: spooled to a file first (a zip's index is at its end), read entry by entry. */
async function copyZip(source: Readable, pack: tar.Pack, dir: string): Promise<void> {
  const file = join(dir, 'context.zip');
  await pipeline(source, createWriteStream(file, { mode: 0o600 }));
  const yauzl = await import('yauzl');
  const open = () => yauzl.openPromise(file, { lazyEntries: true, validateEntrySizes: true });
  const names: string[] = [];
  try {
    const index = await open();
    if (index.entryCount > ZIP_MAX_ENTRIES) {
      index.close();
      throw new PayloadTooLargeError(`The zip holds more than ${ZIP_MAX_ENTRIES} entries.`);
    }
    for await (const entry of index.eachEntry()) names.push(entry.fileName);
    index.close();
  } catch (err) {
    if (err instanceof PayloadTooLargeError) throw err;
    throw new ValidationError(`The zip cannot be read: ${(err as Error).message}`, [
      { field: 'context', message: 'Unreadable zip.' },
    ]);
  }
  {
    const tops = new Set(names.map((n) => n.split('/')[0]));
    const strip = tops.size === 1 && names.every((n) => n.includes('/')) ? `${[...tops][0]}/` : '';
    const reader = await open();
    let unpacked = 0;
    try {
      for await (const entry of reader.eachEntry()) {
        const name = entry.fileName.slice(strip.length);
        if (!name || name === TYPED_DOCKERFILE) continue;
        const unixMode = (entry.externalFileAttributes >>> 16) & 0xffff;
        const mtime = entry.getLastModDate();
        if (name.endsWith('/')) {
          pack.entry({ name, type: 'directory', mode: unixMode & 0o7777 || 0o755, mtime });
          continue;
        }
        unpacked += entry.uncompressedSize;
        if (unpacked > ZIP_MAX_UNPACKED_BYTES)
          throw new PayloadTooLargeError(`The zip unpacks to more than ${ZIP_MAX_UNPACKED_BYTES / 1024 ** 3} GiB.`);
        const body = await reader.openReadStreamPromise(entry);
        if ((unixMode & 0o170000) === 0o120000) {
          const target: Buffer[] = [];
          for await (const c of body) target.push(c as Buffer);
          pack.entry({ name, type: 'symlink', linkname: Buffer.concat(target).toString('utf8'), mtime });
          continue;
        }
        const mode = unixMode & 0o7777 || 0o644;
        await pipeline(body, pack.entry({ name, size: entry.uncompressedSize, mode, mtime }));
      }
    } finally {
      reader.close();
    }
  }
}

/**
 * Makes the engine's build context. Without an upload: a tar holding only the typed Dockerfile.
 * A .tar or .tar.gz without a typed Dockerfile goes to the engine as it arrives (it unpacks
 * gzip itself); with one, the archive is copied entry by entry with the Dockerfile added. A zip
 * is spooled to a private temporary folder (a zip's index is at its end) and turned into a tar.
 * The upload is capped at IMAGE_UPLOAD_MAX_BYTES either way.
 */
export async function prepareContext(input: ContextInput): Promise<PreparedContext> {
  let dir: string | null = null;
  const cleanup = async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
    dir = null;
  };
  if (!input.upload) {
    if (input.dockerfile === undefined)
      throw new ValidationError('Type a Dockerfile, upload a context or name a git repository.', [
        { field: 'dockerfile', message: 'Required without a context.' },
      ]);
    const pack = (await tarStream()).pack();
    dockerfileEntry(pack, input.dockerfile);
    pack.finalize();
    return { stream: pack as unknown as Readable, dockerfile: TYPED_DOCKERFILE, done: Promise.resolve(), cleanup };
  }
  const { head, all } = await peek(input.upload, 512);
  const kind = kindOf(head);
  const limited = all.pipe(capped(IMAGE_UPLOAD_MAX_BYTES, UPLOAD_TOO_LARGE));
  all.on('error', (err) => limited.destroy(err));
  const dockerfile = input.dockerfile !== undefined ? TYPED_DOCKERFILE : (input.dockerfilePath ?? 'Dockerfile');
  if (kind !== 'zip' && input.dockerfile === undefined) {
    const out = new PassThrough();
    const done = pipeline(limited, out);
    return { stream: out, dockerfile, done, cleanup };
  }
  const pack = (await tarStream()).pack();
  if (kind === 'zip') dir = await mkdtemp(join(tmpdir(), 'berth-build-'));
  const work = async () => {
    if (kind === 'zip') await copyZip(limited, pack, dir!);
    else await copyTar(kind === 'gzip' ? gunzip(limited) : limited, pack);
    if (input.dockerfile !== undefined) dockerfileEntry(pack, input.dockerfile);
    pack.finalize();
  };
  const done = work().catch((err: unknown) => {
    const reason =
      err instanceof AppError
        ? err
        : new ValidationError(`The context archive cannot be read: ${(err as Error).message}`, [
            { field: 'context', message: 'Unreadable archive.' },
          ]);
    pack.destroy(reason);
    throw reason;
  });
  return { stream: pack as unknown as Readable, dockerfile: posix.normalize(dockerfile), done, cleanup };
}

/**
 * A checked-out repository's folder `subdir` as the build context (its `.git` left out), packed
 * file by file as the engine reads it; `text` is its Dockerfile (whose FROM lines name the
 * registries the build may pull from). A folder or Dockerfile the checkout lacks is a 400.
 */
export async function folderContext(
  root: string,
  subdir: string,
  dockerfilePath: string | undefined,
): Promise<PreparedContext & { text: string }> {
  const top = await realpath(root);
  const dir = await realpath(resolve(top, subdir || '.')).catch(() => null);
  const inside = dir !== null && (dir === top || dir.startsWith(top + sep));
  if (!inside || !(await lstat(dir).catch(() => null))?.isDirectory())
    throw new ValidationError(`The repository has no folder ${subdir}.`, [
      { field: 'git.subdir', message: 'Not a folder in the repository.' },
    ]);
  const dockerfile = posix.normalize(dockerfilePath ?? 'Dockerfile');
  const st = await lstat(join(dir, dockerfile)).catch(() => null);
  const where = subdir ? `the folder ${subdir}` : 'the repository';
  if (!st?.isFile())
    throw new ValidationError(`${where[0]!.toUpperCase()}${where.slice(1)} has no ${dockerfile}.`, [
      { field: 'dockerfile_path', message: `No such file in ${where}.` },
    ]);
  const text = st.size <= DOCKERFILE_MAX_CHARS * 4 ? await readFile(join(dir, dockerfile), 'utf8') : '';
  const pack = (await tarStream()).pack();
  const work = async () => {
    for (const e of await readdir(dir, { withFileTypes: true, recursive: true })) {
      const full = join(e.parentPath, e.name);
      const name = relative(dir, full).split(sep).join('/');
      if (dir === top && (name === '.git' || name.startsWith('.git/'))) continue;
      const info = await lstat(full);
      const mode = info.mode & 0o7777;
      if (info.isDirectory()) pack.entry({ name, type: 'directory', mode, mtime: info.mtime });
      else if (info.isSymbolicLink())
        pack.entry({ name, type: 'symlink', linkname: await readlink(full), mode, mtime: info.mtime });
      else if (info.isFile())
        await pipeline(createReadStream(full), pack.entry({ name, size: info.size, mode, mtime: info.mtime }));
    }
    pack.finalize();
  };
  const done = work().catch((err: unknown) => {
    pack.destroy(err as Error);
    throw err;
  });
  return { stream: pack as unknown as Readable, dockerfile, text, done, cleanup: async () => undefined };
}
