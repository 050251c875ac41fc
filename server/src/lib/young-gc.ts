import v8 from 'node:v8';
import vm from 'node:vm';

type Gc = (opts: { type: 'minor' | 'major'; execution?: 'sync' | 'async' }) => void;

let gc: Gc | null | undefined;

/** V8's gc(), made once without a command-line flag (a new context gets it once the flag is set). */
function load(): Gc | null {
  try {
    v8.setFlagsFromString('--expose-gc');
    const found = vm.runInNewContext('gc') as unknown;
    return typeof found === 'function' ? (found as Gc) : null;
  } catch {
    return null;
  }
}

/**
 * A young-generation collection (a scavenge: about a millisecond). A stream of large chunks makes
 * almost no JS garbage but one buffer per chunk: V8 frees those only at a collection, which
 * their small wrappers never cause, so without a nudge a 50 MB upload left ~25 MB of dead
 * buffers in the process before the engine's external-memory limit (64 MB) forced one.
 */
export function collectYoung(): void {
  gc ??= load();
  gc?.({ type: 'minor' });
}

/** Calls collectYoung after every `every` bytes that pass `count` (a stream's data handler). */
export function youngGcEvery(every: number): (bytes: number) => void {
  let since = 0;
  return (bytes) => {
    since += bytes;
    if (since < every) return;
    since = 0;
    collectYoung();
  };
}
