import { createHash } from 'node:crypto';
import { Readable, Transform, type TransformCallback } from 'node:stream';
import type { ReadableStream as WebReadable } from 'node:stream/web';
import { ValidationError } from '../../errors';

/** zstd level for archives: fast, and most of the gain. */
const ZSTD_LEVEL = 3;

/** age's scrypt work factor (log2 N) for a passphrase: the age tool's default. */
export const SCRYPT_LOG_N = 18;

/** A pass-through that counts and hashes what goes by (sha256, hex once it ended). */
export class Tally extends Transform {
  bytes = 0;
  private readonly hash = createHash('sha256');
  sha256 = '';
  override _transform(chunk: Buffer, _enc: BufferEncoding, cb: TransformCallback): void {
    this.bytes += chunk.length;
    this.hash.update(chunk);
    cb(null, chunk);
  }
  override _flush(cb: TransformCallback): void {
    this.sha256 = this.hash.digest('hex');
    cb();
  }
}

/** zstd with a checksum in the frame (a decompression of a changed archive fails). */
// zstd-napi and age-encryption (with @noble's curves, which build tables on import) load on
// first use: ~13 MiB and ~0.1 s at start for installs that never back up.
export const compressor = async (): Promise<Transform> =>
  new (await import('zstd-napi')).CompressStream({ compressionLevel: ZSTD_LEVEL, checksumFlag: true });
export const decompressor = async (): Promise<Transform> => new (await import('zstd-napi')).DecompressStream();

/**
 * Encrypts a stream to a passphrase with age (scrypt recipient, ChaCha20-Poly1305 in 64 KiB
 * authenticated chunks): the archive opens with the `age` tool too.
 */
export async function encrypt(input: Readable, passphrase: string, scryptLogN = SCRYPT_LOG_N): Promise<Readable> {
  const e = new (await import('age-encryption')).Encrypter();
  e.setScryptWorkFactor(scryptLogN);
  e.setPassphrase(passphrase);
  const out = await e.encrypt(Readable.toWeb(input) as unknown as ReadableStream<Uint8Array>);
  return Readable.fromWeb(out as unknown as WebReadable<Uint8Array>);
}

/**
 * The plaintext of an age stream. The header is checked before anything is read: a wrong
 * passphrase is a ValidationError here, and a changed chunk fails the stream where it is.
 */
export async function decrypt(input: Readable, passphrase: string): Promise<Readable> {
  const d = new (await import('age-encryption')).Decrypter();
  d.addPassphrase(passphrase);
  try {
    const out = await d.decrypt(Readable.toWeb(input) as unknown as ReadableStream<Uint8Array>);
    return Readable.fromWeb(out as unknown as WebReadable<Uint8Array>);
  } catch (err) {
    input.destroy();
    throw new ValidationError(
      `The archive could not be decrypted: the passphrase is wrong or the archive is damaged (${(err as Error).message}).`,
    );
  }
}
