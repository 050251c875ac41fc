// The dashboard stream's formats side by side on one server, for scripts/bench/apps.ts [2]:
// the samples format (before issue 40) and the tick format uncompressed, gzip and brotli.
import type { Probe } from './server';
import { pct } from './engine-cpu';
import { WireMeter } from './wire';

const VIEWERS = Number(process.env.BENCH_VIEWERS ?? 10);
const range = (n: number) => Array.from({ length: n }, (_, i) => i);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Rounds of the dashboard stream's formats side by side (cgroup source), each window this long. */
export const FORMAT_ROUNDS = Number(process.env.BENCH_FORMAT_ROUNDS ?? 3);
export const FORMAT_MS = Number(process.env.BENCH_FORMAT_WINDOW_S ?? 10) * 1000;
/** The dashboard stream as each variant asks for it: the samples format (before issue 40) and the tick format. */
export const FORMATS = [
  { label: 'samples (one event per app per sample)', query: '', accept: 'br, gzip' },
  { label: 'tick, uncompressed', query: '?format=tick', accept: 'identity' },
  { label: 'tick, gzip', query: '?format=tick', accept: 'gzip' },
  { label: 'tick, brotli', query: '?format=tick', accept: 'br, gzip' },
] as const;
export interface FormatRun {
  label: string;
  /** Berth's CPU in each round's window. */
  cpu: number[];
  /** Bytes per second per viewer on the wire and decoded (mean over viewers and rounds). */
  raw: number;
  decoded: number;
  encoding: string;
  /** Tick format: frames per second per viewer, and the fewest apps a viewer held at a window's end. */
  frames: number;
  fewestApps: number;
}

/**
 * The dashboard stream's formats side by side on one server: per round, each format in turn
 * (rotated so none always goes first) with VIEWERS viewers reading it alone for FORMAT_MS after a
 * warm-up; Berth's CPU over the window and the bytes each viewer received.
 */
export async function measureFormats(url: string, cookie: string, ask: () => Promise<Probe>): Promise<FormatRun[]> {
  const runs: FormatRun[] = FORMATS.map((f) => ({
    label: f.label,
    cpu: [],
    raw: 0,
    decoded: 0,
    encoding: '',
    frames: 0,
    fewestApps: Infinity,
  }));
  for (let round = 0; round < FORMAT_ROUNDS; round++) {
    for (let k = 0; k < FORMATS.length; k++) {
      const i = (k + round) % FORMATS.length;
      const f = FORMATS[i]!;
      const run = runs[i]!;
      const meters = await Promise.all(
        range(VIEWERS).map(() => WireMeter.open(`${url}/api/apps/stats${f.query}`, cookie, f.accept)),
      );
      await sleep(2500); // past the first (full) frame
      const p0 = await ask();
      const t0 = Date.now();
      const frames0 = meters.map((m) => m.frames);
      await sleep(FORMAT_MS);
      const end = await ask();
      const t1 = Date.now();
      run.cpu.push(pct(end.cpuMicros / 1e6, end.at - p0.at));
      for (const [j, m] of meters.entries()) {
        const r = m.rate(t0, t1);
        run.raw += r.raw / (VIEWERS * FORMAT_ROUNDS);
        run.decoded += r.decoded / (VIEWERS * FORMAT_ROUNDS);
        run.encoding = m.encoding;
        run.frames += (m.frames - frames0[j]!) / ((t1 - t0) / 1000) / (VIEWERS * FORMAT_ROUNDS);
        if (f.query) run.fewestApps = Math.min(run.fewestApps, m.apps.size);
        m.close();
      }
      await sleep(500);
    }
  }
  return runs;
}
