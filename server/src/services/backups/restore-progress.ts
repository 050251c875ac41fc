import { Transform, type Readable } from 'node:stream';
import type { RestoreProgress } from '@berth/contract';

export type OnRestoreProgress = (p: RestoreProgress) => void;

/** At most this often a progress event while an archive is read (and once at its end). */
const EVERY_MS = 200;

/**
 * Passes a stored archive through unchanged, telling `on` how much of it has been read in this
 * `phase`: a restore reads it once to check it, then again to write the volume.
 */
export function readWithProgress(
  stored: Readable,
  phase: RestoreProgress['phase'],
  total: number,
  on: OnRestoreProgress | undefined,
): Readable {
  if (!on) return stored;
  let bytes = 0;
  let last = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      bytes += chunk.length;
      const now = Date.now();
      if (now - last >= EVERY_MS) {
        last = now;
        on({ phase, bytes, total });
      }
      done(null, chunk);
    },
    flush(done) {
      on({ phase, bytes, total });
      done();
    },
  });
  stored.on('error', (err) => counter.destroy(err));
  on({ phase, bytes: 0, total });
  return stored.pipe(counter);
}
