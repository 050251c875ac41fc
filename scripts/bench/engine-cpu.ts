// The engine's CPU as the apps bench reads it: per part over a window, and Berth's cost to it
// measured in pairs of windows with Berth running and frozen.
import type { ChildProcess } from 'node:child_process';
import type { EngineCpu, PrivateEngine } from './private-engine';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
export const pct = (cpuSeconds: number, ms: number) => (cpuSeconds / (ms / 1000)) * 100;

/** The engine's CPU between two readings, in % of one core, per part and in total. */
export const enginePct = (a: EngineCpu, b: EngineCpu, ms: number) => {
  const parts = {
    dockerd: pct(b.dockerd - a.dockerd, ms),
    containerd: pct(b.containerd - a.containerd, ms),
    shims: pct(b.shims - a.shims, ms),
  };
  return { ...parts, total: parts.dockerd + parts.containerd + parts.shims };
};
export type EnginePct = ReturnType<typeof enginePct>;
export const fmtEngine = (e: EnginePct) =>
  `${e.total.toFixed(2)} % (dockerd ${e.dockerd.toFixed(2)}, containerd ${e.containerd.toFixed(2)}, shims ${e.shims.toFixed(2)})`;

export interface Paired {
  running: EnginePct;
  stopped: EnginePct;
  /** Mean of (running − frozen) over the pairs, % of one core, and its standard error. */
  mean: number;
  stdErr: number;
}

/**
 * The idle engine's own CPU comes in bursts (containerd's periodic work): 20 s windows with no
 * client at all differ by up to ~2 % of a core on a loaded machine, as much as the figure to
 * measure. So Berth is also measured against itself frozen: pairs of short windows with Berth
 * running and frozen (SIGSTOP; its connections stay open), in random order within each pair so
 * a periodic burst cannot side with one state; the mean difference comes with its standard error.
 */
export async function pairedWindows(
  child: ChildProcess,
  engine: PrivateEngine,
  pairs: number,
  pairMs: number,
): Promise<Paired> {
  const zero = { dockerd: 0, containerd: 0, shims: 0 };
  const sums = { running: { ...zero }, stopped: { ...zero } };
  const diffs: number[] = [];
  let ms = 0;
  try {
    for (let i = 0; i < pairs; i++) {
      const order = Math.random() < 0.5 ? (['running', 'stopped'] as const) : (['stopped', 'running'] as const);
      const pair = { running: 0, stopped: 0 };
      for (const state of order) {
        child.kill(state === 'running' ? 'SIGCONT' : 'SIGSTOP');
        await sleep(500); // let the change settle
        const a = engine.cpu();
        const t0 = Date.now();
        await sleep(pairMs);
        const b = engine.cpu();
        if (state === 'running') ms += Date.now() - t0;
        for (const k of ['dockerd', 'containerd', 'shims'] as const) {
          sums[state][k] += b[k] - a[k];
          pair[state] += b[k] - a[k];
        }
      }
      diffs.push(pct(pair.running - pair.stopped, pairMs));
    }
  } finally {
    child.kill('SIGCONT');
  }
  const mean = diffs.reduce((x, y) => x + y, 0) / diffs.length;
  const sd = Math.sqrt(diffs.reduce((x, d) => x + (d - mean) ** 2, 0) / Math.max(1, diffs.length - 1));
  return {
    running: enginePct(zero, sums.running, ms),
    stopped: enginePct(zero, sums.stopped, ms),
    mean,
    stdErr: sd / Math.sqrt(diffs.length),
  };
}
