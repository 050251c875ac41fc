import { posix } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type * as tar from 'tar-stream';
import type { FileEntry } from '@berth/contract';
import type { ByteStream } from '../../docker/engine';
import { youngGcEvery } from '../../lib/young-gc';

/** How much of an upload passes between two young collections (its dead chunks stay about this small). */
const GC_EVERY_BYTES = 4 * 1024 * 1024;

/** A tar header as tar-stream reads it. */
export type TarHeader = tar.Headers;

const TYPES: Partial<Record<NonNullable<TarHeader['type']>, FileEntry['type']>> = {
  file: 'file',
  'contiguous-file': 'file',
  link: 'file',
  directory: 'directory',
  symlink: 'symlink',
};

/** The API's entry for one tar header found at `path`. */
export function entryOf(h: TarHeader, path: string): FileEntry {
  const mode = ((h.mode ?? 0) & 0o7777).toString(8).padStart(4, '0');
  return {
    name: posix.basename(path) || '/',
    path,
    type: TYPES[h.type ?? 'file'] ?? 'other',
    size: h.type === 'directory' ? 0 : (h.size ?? 0),
    mode,
    owner: `${h.uname || h.uid || 0}:${h.gname || h.gid || 0}`,
    modified: (h.mtime ?? new Date(0)).toISOString(),
    link_target: h.type === 'symlink' ? (h.linkname ?? '') : null,
  };
}

/**
 * Reads an archive's entries one by one, handing `onEntry` each header with its name relative
 * to the archive's first entry ('' for that one); `onEntry` may read the entry's data (return
 * it) or skip it (return undefined); returning false stops reading (the engine stream is closed).
 */
/** tar-stream, loaded on first use (with streamx and its helpers: ~15 modules not needed at start). */
export const tarStream = (): Promise<typeof tar> => import('tar-stream');

export async function readArchive(
  archive: ByteStream,
  onEntry: (h: TarHeader, relative: string, body: NodeJS.ReadableStream) => Promise<boolean | void> | boolean | void,
): Promise<void> {
  const extract = (await tarStream()).extract();
  const feeding = pipeline(archive as NodeJS.ReadableStream, extract).catch(() => {
    // Ending early (below) destroys the pipeline on purpose; a real read failure surfaces in the loop.
  });
  let root: string | null = null;
  try {
    for await (const entry of extract) {
      const name = entry.header.name.replace(/\/+$/, '');
      if (root === null) root = name;
      const relative = name === root ? '' : name.slice(root === '' ? 1 : root.length + 1);
      const more = await onEntry(entry.header, relative, entry);
      entry.resume();
      if (more === false) break;
    }
  } finally {
    archive.destroy?.();
    extract.destroy();
    await feeding;
  }
}

/** Reads all of an entry's data, refusing more than `max` bytes. */
export async function readAll(body: NodeJS.ReadableStream, max: number): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > max) return null;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** A one-entry archive of `header` with `data` (a folder when header.type is directory). */
export async function packOne(header: TarHeader, data?: Buffer): Promise<tar.Pack> {
  const pack = (await tarStream()).pack();
  pack.entry(header, data);
  pack.finalize();
  return pack;
}

/**
 * A one-entry archive whose data is read from `body` as it arrives (never held whole): the entry's
 * size must be known (the tar header comes first). `done` settles once the body is in the archive.
 */
export async function packStream(
  header: TarHeader & { size: number },
  body: NodeJS.ReadableStream,
): Promise<{
  pack: tar.Pack;
  done: Promise<void>;
}> {
  const pack = (await tarStream()).pack();
  const entry = pack.entry(header);
  // Each chunk of the body is a buffer freed only by a collection: let one run every few MiB, so an upload's dead chunks never pile up.
  const passed = youngGcEvery(GC_EVERY_BYTES);
  body.on('data', (chunk: Buffer) => passed(chunk.length));
  const done = pipeline(body, entry).then(() => {
    pack.finalize();
  });
  done.catch((err: Error) => pack.destroy(err));
  return { pack, done };
}
