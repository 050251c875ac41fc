// The node flags and allocator settings of the root package's `start` script, read from it, so
// what runs the server outside `npm start` (the e2e journeys, the bench's servers) runs it with
// the same V8 and malloc settings. The Dockerfile's CMD carries the same flags (a unit test holds
// them equal).
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const words = (
  JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: { start: string } }
).scripts.start.split(/\s+/);

/** Environment settings of the start script (MALLOC_ARENA_MAX=2 …). */
export const START_ENV: Record<string, string> = Object.fromEntries(
  words.filter((w) => /^[A-Z_]+=/.test(w)).map((w) => w.split('=') as [string, string]),
);
/** Node and V8 flags of the start script. */
export const START_FLAGS: string[] = words.filter((w) => w.startsWith('--'));
