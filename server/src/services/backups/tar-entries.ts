import { once } from 'node:events';
import type { Hash } from 'node:crypto';
import type * as tar from 'tar-stream';
import type { TarHeader } from '../files/tar';

/** A header renamed to `name` (and its hard link target to `linkname`), its other pax records kept. */
export function renamed(h: TarHeader, name: string, linkname?: string | null): TarHeader {
  const { path: _path, linkpath: _linkpath, ...pax } = (h as { pax?: Record<string, string> }).pax ?? {};
  return {
    name,
    type: h.type,
    mode: h.mode,
    uid: h.uid,
    gid: h.gid,
    uname: h.uname,
    gname: h.gname,
    size: h.size,
    mtime: h.mtime,
    linkname: linkname ?? h.linkname,
    devmajor: h.devmajor,
    devminor: h.devminor,
    ...(Object.keys(pax).length ? { pax } : {}),
  };
}

/** Adds an entry to `pack`, its data read from `body` as it comes (fed to `hash` too), with back-pressure. */
export async function addEntry(
  pack: tar.Pack,
  header: TarHeader,
  body: NodeJS.ReadableStream | null,
  hash: Hash | null,
): Promise<void> {
  const hasData = body !== null && header.type !== 'symlink' && (header.size ?? 0) > 0;
  await new Promise<void>((resolve, reject) => {
    const sink = pack.entry(header, (err) => (err ? reject(err) : resolve()));
    sink.on('error', () => undefined); // a failure is the callback's (and the pack's), not an unhandled event
    if (!hasData) {
      if (body) (body as NodeJS.ReadableStream & { resume(): void }).resume();
      sink.end(); // an empty file's entry is only complete once ended
      return;
    }
    void (async () => {
      try {
        for await (const chunk of body as AsyncIterable<Buffer>) {
          hash?.update(chunk);
          if (!sink.write(chunk)) await once(sink, 'drain');
        }
        sink.end();
      } catch (err) {
        sink.destroy(err as Error);
        reject(err as Error);
      }
    })();
  });
}

/** Feeds an entry's data to `hash` and drops it. */
export async function hashOnly(body: NodeJS.ReadableStream, hash: Hash | null): Promise<void> {
  for await (const chunk of body as AsyncIterable<Buffer>) hash?.update(chunk);
}
