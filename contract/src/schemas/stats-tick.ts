import { z } from 'zod';
import type { StatsSample } from './stats';

/**
 * The dashboard stream's compact format (`GET /api/apps/stats?format=tick`): one `tick` event a
 * second at most, carrying every app whose numbers changed since the frame the viewer got before.
 * The first frame is full; later ones are deltas. Numbers are rounded to what a dashboard card
 * shows (whole percents, bytes to the card's two decimals of their unit), so an app whose card
 * would not change is not in the frame at all, and a tick where nothing changed sends nothing.
 */
export const DashboardStatsQuery = z.object({
  format: z
    .enum(['samples', 'tick'], { error: () => 'Unknown format; use samples (the default) or tick.' })
    .default('samples'),
});
export type DashboardStatsQuery = z.infer<typeof DashboardStatsQuery>;

/** One app's numbers under short keys; a delta frame carries only the keys whose values changed. */
export const StatsTickValues = z.object({
  /** cpu_percent */
  c: z.number().optional(),
  /** mem_percent */
  m: z.number().optional(),
  /** mem_current (bytes used) */
  u: z.number().optional(),
  /** mem_total (bytes available) */
  l: z.number().optional(),
});
export type StatsTickValues = z.infer<typeof StatsTickValues>;

/** Event `tick` of the dashboard stream in the tick format. */
export const StatsTick = z.object({
  /** The tick's time, milliseconds since the epoch (the time of every sample in it). */
  t: z.number(),
  /** A full frame: every running app with all its numbers; apps not in it are gone. */
  full: z.literal(true).optional(),
  /** Apps that appeared or whose numbers changed, by name. */
  apps: z.record(z.string(), StatsTickValues),
  /** Apps that stopped, were removed or renamed since the previous frame (deltas only). */
  gone: z.array(z.string()).optional(),
});
export type StatsTick = z.infer<typeof StatsTick>;

/** An app's numbers in key order c, m, u, l. */
export type TickNumbers = [cpu: number, memPercent: number, memCurrent: number, memTotal: number];
const KEYS = ['c', 'm', 'u', 'l'] as const;

/** Bytes rounded to two decimals of the binary unit they are shown in (1.23 MiB), as whole bytes. */
export function roundBytes(bytes: number): number {
  if (!Number.isFinite(bytes) || bytes <= 0) return 0;
  const unit = 1024 ** Math.max(0, Math.floor(Math.log(bytes) / Math.log(1024)));
  return Math.round((Math.round((bytes / unit) * 100) / 100) * unit);
}

/** A sample's numbers as a card shows them. */
export function tickNumbers(
  s: Pick<StatsSample, 'cpu_percent' | 'mem_percent' | 'mem_current' | 'mem_total'>,
): TickNumbers {
  return [Math.round(s.cpu_percent), Math.round(s.mem_percent), roundBytes(s.mem_current), roundBytes(s.mem_total)];
}

interface AppState {
  v: TickNumbers;
  /** The tick each number last changed in. */
  at: TickNumbers;
}

/**
 * The server's side: samples and removals are staged as they arrive and committed once per tick;
 * `frame(since)` is what a viewer that last got tick `since` needs (null: nothing yet), so a
 * viewer that skipped ticks (it reads slowly) gets one frame covering all it missed, never a queue.
 */
export class StatsTickEncoder {
  private seq = 0;
  private time = 0;
  private readonly apps = new Map<string, AppState>();
  /** Apps gone, with the tick they went in (oldest first); kept for `keepGone` ticks. */
  private readonly gone = new Map<string, number>();
  private readonly staged = new Map<string, TickNumbers | null>();
  /** A viewer behind this tick may have missed a removal that is no longer kept: it gets a full frame. */
  private horizon = 0;

  constructor(private readonly keepGone = 60) {}

  /** The current tick (0 before the first commit). */
  get tick(): number {
    return this.seq;
  }

  stage(sample: StatsSample): void {
    this.staged.set(sample.name, tickNumbers(sample));
  }

  stageRemoval(name: string): void {
    this.staged.set(name, null);
  }

  /** Applies what was staged as the next tick at `time`; false (no new tick) when nothing changed. */
  commit(time: number): boolean {
    if (this.staged.size === 0) return false;
    const next = this.seq + 1;
    let changed = false;
    for (const [name, v] of this.staged) {
      const cur = this.apps.get(name);
      if (v === null) {
        if (!cur) continue;
        this.apps.delete(name);
        this.gone.delete(name);
        this.gone.set(name, next);
        changed = true;
      } else if (!cur) {
        this.apps.set(name, { v: [...v], at: [next, next, next, next] });
        this.gone.delete(name);
        changed = true;
      } else {
        for (let i = 0; i < 4; i++) {
          if (cur.v[i] === v[i]) continue;
          cur.v[i] = v[i]!;
          cur.at[i] = next;
          changed = true;
        }
      }
    }
    this.staged.clear();
    if (!changed) return false;
    this.seq = next;
    this.time = time;
    for (const [name, at] of this.gone) {
      if (at > next - this.keepGone) break;
      this.gone.delete(name);
      this.horizon = Math.max(this.horizon, at);
    }
    return true;
  }

  frame(since: number | null): StatsTick {
    const full = since === null || since < this.horizon;
    const apps: Record<string, StatsTickValues> = {};
    for (const [name, app] of this.apps) {
      let values: StatsTickValues | null = null;
      for (let i = 0; i < 4; i++) {
        if (!full && app.at[i]! <= since!) continue;
        (values ??= {})[KEYS[i]!] = app.v[i];
      }
      if (values) apps[name] = values;
    }
    if (full) return { t: this.time, full: true, apps };
    const gone: string[] = [];
    for (const [name, at] of this.gone) if (at > since!) gone.push(name);
    return { t: this.time, apps, ...(gone.length ? { gone } : {}) };
  }
}

/**
 * The client's side: applies a frame to the numbers it holds per app and says which apps changed
 * (their new numbers are in `state`) and which are gone. An app a delta names without all four
 * numbers and that the state does not hold (a frame missed) is skipped until the next full frame.
 */
export function applyStatsTick(
  state: Map<string, TickNumbers>,
  frame: StatsTick,
): { changed: string[]; removed: string[] } {
  const changed: string[] = [];
  const removed: string[] = [];
  if (frame.full) {
    for (const name of [...state.keys()]) {
      if (frame.apps[name]) continue;
      state.delete(name);
      removed.push(name);
    }
  }
  for (const name of frame.gone ?? []) if (state.delete(name)) removed.push(name);
  for (const [name, values] of Object.entries(frame.apps)) {
    const prev = state.get(name);
    const next = KEYS.map((k, i) => values[k] ?? prev?.[i]);
    if (next.some((n) => n === undefined)) continue;
    const numbers = next as TickNumbers;
    if (prev && numbers.every((n, i) => n === prev[i])) continue;
    state.set(name, numbers);
    changed.push(name);
  }
  return { changed, removed };
}

/** An app's numbers as the StatsSample a card reads. */
export function tickSample(name: string, n: TickNumbers, time: number): StatsSample {
  return {
    name,
    time: new Date(time).toISOString(),
    cpu_percent: n[0],
    mem_percent: n[1],
    mem_current: n[2],
    mem_total: n[3],
  };
}
