import type { Readable } from 'node:stream';
import type * as tar from 'tar-stream';
import { tarStream } from '../files/tar';
import { Tally, compressor, decompressor, decrypt, encrypt } from './archive-codec';

/** Pipes `a` into `b`, and an error of `a` ends `b` with it (pipe alone leaves `b` hanging). */
function into<T extends NodeJS.WritableStream & Readable>(a: Readable, b: T): T {
  a.on('error', (err) => b.destroy(err));
  // Whoever reads `b` sees its error too (pipeline, iteration); this keeps one raised after
  // the reader gave up (zstd's checksum at the end of a changed archive) from being unhandled.
  b.on('error', () => undefined);
  return a.pipe(b);
}

export interface ProducedArchive<T> {
  filled: T;
  /** The archive's size and sha256 as stored (compressed, and encrypted when a passphrase was given). */
  bytes: number;
  sha256: string;
  /** The tar's size before compression. */
  tarBytes: number;
}

/**
 * Makes an archive as a stream, never held whole: `fill` adds entries to a tar, which is
 * compressed with zstd, encrypted with age when a passphrase is given, counted and hashed, and
 * handed to `store` (a destination's upload) while it is made.
 */
export async function produceArchive<T>(
  fill: (pack: tar.Pack) => Promise<T>,
  passphrase: string | null,
  store: (stream: Readable) => Promise<void>,
  scryptLogN?: number,
): Promise<ProducedArchive<T>> {
  const pack = (await tarStream()).pack();
  const tarTally = new Tally();
  const outTally = new Tally();
  const compressed = into(into(pack, tarTally), await compressor());
  const sealed = passphrase ? await encrypt(compressed, passphrase, scryptLogN) : compressed;
  const out = into(sealed, outTally);
  const storing = store(out);
  storing.catch(() => undefined);
  let filled: T;
  try {
    filled = await fill(pack);
    pack.finalize();
  } catch (err) {
    pack.destroy(err as Error);
    await storing.catch(() => undefined);
    throw err;
  }
  await storing;
  return { filled, bytes: outTally.bytes, sha256: outTally.sha256, tarBytes: tarTally.bytes };
}

/**
 * The tar inside a stored archive: counted and hashed as it is read (`tally.sha256` once the
 * stream ended), decrypted (a wrong passphrase throws here, before any entry), decompressed.
 */
export async function openArchive(
  stored: Readable,
  passphrase: string | null,
): Promise<{ tar: Readable; tally: Tally }> {
  const tally = new Tally();
  const counted = into(stored, tally);
  const plain = passphrase ? await decrypt(counted, passphrase) : counted;
  return { tar: into(plain, await decompressor()), tally };
}
