import type { Hash } from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import type * as tar from 'tar-stream';
import type { Engine } from '../../docker/engine';
import { EngineError } from '../../errors';
import { readArchive, tarStream, type TarHeader } from '../files/tar';
import { HELPER_MOUNT, type HelperContainers } from '../volumes/helper-container';
import type { Actor } from '../policy/policy';
import { addEntry, hashOnly, renamed } from './tar-entries';
import { TreeHasher, type TreeSummary } from './tree-hash';

/** Where a volume's tree sits inside a backup archive. */
export const volumeSection = (volume: string) => `volumes/${volume}`;

/** A hard link's target in the helper's tree (`volume/x`) relative to the tree's root (`x`). */
function linkRelative(h: TarHeader): string | undefined {
  if (h.type !== 'link' || !h.linkname) return undefined;
  const slash = h.linkname.indexOf('/');
  return slash < 0 ? '' : h.linkname.slice(slash + 1);
}

const under = (base: string, relative: string | undefined) =>
  relative === undefined ? undefined : relative ? `${base}/${relative}` : base;

/**
 * Appends a volume's whole tree to `pack` under `volumes/<name>/`, read through a read-only
 * helper container and streamed (nothing is held whole or written to the host), and answers what
 * it held with its tree checksum.
 */
/** How backups reach volumes: the engine, its helper containers, and who acts. */
export interface VolumeAccess {
  docker: Engine;
  helpers: HelperContainers;
  actor: Actor;
}

export async function packVolume(
  { docker, helpers, actor }: VolumeAccess,
  volume: string,
  pack: tar.Pack,
  signal?: AbortSignal,
): Promise<TreeSummary> {
  return helpers.use(actor, { volume, readOnly: true, purpose: 'backup' }, async (helper) => {
    const hasher = new TreeHasher();
    const base = volumeSection(volume);
    await readArchive(
      await docker.containers.getArchive(helper.id, HELPER_MOUNT, signal),
      async (h, relative, body) => {
        const link = linkRelative(h);
        const { data, done } = hasher.add(h, relative, link);
        await addEntry(pack, renamed(h, under(base, relative)!, under(base, link)), body, data);
        done();
      },
    );
    return hasher.summary();
  });
}

/** A volume's tree checksum as it is now (read back through a helper container). */
export async function volumeTree({ docker, helpers, actor }: VolumeAccess, volume: string): Promise<TreeSummary> {
  return helpers.use(actor, { volume, readOnly: true, purpose: 'verify' }, async (helper) => {
    const hasher = new TreeHasher();
    await readArchive(await docker.containers.getArchive(helper.id, HELPER_MOUNT), async (h, relative, body) => {
      const { data, done } = hasher.add(h, relative, linkRelative(h));
      await hashOnly(body, data);
      done();
    });
    return hasher.summary();
  });
}

/** Receives one section of an archive being restored: its entries (names relative to it), then close. */
export interface SectionSink {
  /** Writes one entry, feeding its data to `hash` as it goes (a hard link's linkname is relative to the section). */
  entry(h: TarHeader, relative: string, body: NodeJS.ReadableStream, hash: Hash | null): Promise<void>;
  /** All entries given; answers the tree checksum of what was written, read back. */
  close(): Promise<TreeSummary>;
  /** Gives up (an error upstream): stops writing, leaves what was written. */
  abort(err: Error): Promise<void>;
}

/**
 * A sink writing a section's entries into `volume` (which must exist) through a writable helper
 * container, streamed into the engine's archive API; on close the volume is read back.
 */
export async function volumeSink(access: VolumeAccess, volume: string): Promise<SectionSink> {
  const helper = await access.helpers.open(access.actor, { volume, readOnly: false, purpose: 'restore' });
  const pack = (await tarStream()).pack();
  // An abort destroys the pack with the upstream error; the upload's own failure is `writing`.
  pack.on('error', () => undefined);
  const writing = access.docker.containers.putArchive(helper.id, '/', pack);
  writing.catch(() => undefined);
  const base = HELPER_MOUNT.slice(1);
  return {
    async entry(h, relative, body, hash) {
      const link = h.type === 'link' ? (h.linkname ?? '') : undefined;
      await addEntry(pack, renamed(h, under(base, relative)!, under(base, link)), body, hash);
    },
    async close() {
      pack.finalize();
      try {
        await writing;
      } finally {
        await helper.release();
      }
      return volumeTree(access, volume);
    },
    async abort(err) {
      pack.destroy(err);
      await writing.catch(() => undefined);
      await helper.release();
    },
  };
}

/**
 * Reads a backup tar and hands each section's entries (`<kind>/<name>/…`, or `<kind>/…` for a
 * one-section kind) to the sink `open` makes for it (null skips the section). Answers, per
 * section, the tree checksum of its entries as the archive holds them and of what the sink wrote.
 */
export async function unpackSections(
  archive: NodeJS.ReadableStream,
  sectionOf: (name: string) => { section: string; relative: string } | null,
  open: (section: string) => Promise<SectionSink | null>,
): Promise<Map<string, { archived: TreeSummary; written: TreeSummary | null }>> {
  const extract = (await tarStream()).extract();
  const feeding = pipeline(archive, extract);
  feeding.catch(() => undefined);
  const results = new Map<string, { archived: TreeSummary; written: TreeSummary | null }>();
  type Open = { section: string; sink: SectionSink | null; hasher: TreeHasher };
  let current = null as Open | null;
  const finish = async () => {
    if (!current) return;
    const written = current.sink ? await current.sink.close() : null;
    results.set(current.section, { archived: current.hasher.summary(), written });
    current = null;
  };
  try {
    for await (const entry of extract) {
      const where = sectionOf(entry.header.name.replace(/\/+$/, ''));
      if (!where) {
        entry.resume();
        continue;
      }
      if (current?.section !== where.section) {
        await finish();
        current = { section: where.section, sink: await open(where.section), hasher: new TreeHasher() };
      }
      const header = entry.header;
      if (header.type === 'link') header.linkname = sectionOf(header.linkname ?? '')?.relative ?? '';
      const { data, done } = current.hasher.add(header, where.relative, header.linkname ?? undefined);
      if (current.sink) await current.sink.entry(entry.header, where.relative, entry, data);
      else await hashOnly(entry, data);
      done();
      entry.resume();
    }
    await feeding;
    await finish();
  } catch (err) {
    await current?.sink?.abort(err as Error);
    extract.destroy();
    throw err;
  }
  return results;
}

/**
 * Empties a volume (its root folder stays) before a restore over it, with `rm` in a running helper
 * (the helper image has a shell: Berth's own, busybox or alpine).
 */
export async function emptyVolume({ helpers, actor }: VolumeAccess, volume: string): Promise<void> {
  const script = `rm -rf ${HELPER_MOUNT}/..?* ${HELPER_MOUNT}/.[!.]* ${HELPER_MOUNT}/*`;
  await helpers.use(actor, { volume, readOnly: false, purpose: 'empty', running: true }, async (h) => {
    const { code, output } = await h.exec(['sh', '-c', script], 600_000);
    if (code !== 0)
      throw new EngineError(500, `Emptying volume ${volume} failed (exit ${code}): ${output.slice(-300)}`);
  });
}
