import { queryOptions } from '@tanstack/react-query';
import { appsApi, HISTORY_RANGES, type HistoryRange, type HistorySample, type StatsSample } from '@berth/contract';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** How often each range's history is read again (its step; 10 m is kept live by the stream instead). */
const REFRESH_MS: Record<HistoryRange, number | false> = { '10m': false, '1h': 10_000, '24h': 60_000, '7d': 600_000 };
export const RANGE_SECONDS: Record<HistoryRange, number> = { '10m': 600, '1h': 3600, '24h': 86_400, '7d': 604_800 };

/** The shortest kept range that still shows the moment `at` (ms) with a minute before it; null when older than all. */
export function rangeContaining(at: number, now = Date.now()): HistoryRange | null {
  const ago = (now - at) / 1000 + 60;
  return HISTORY_RANGES.find((r) => RANGE_SECONDS[r] >= ago) ?? null;
}

export const historyQuery = (env: string, name: string, range: HistoryRange) =>
  queryOptions({
    queryKey: queryKeys.apps.history(env, name, range),
    queryFn: ({ signal }) => api(appsApi.statsHistory, { env, params: { name }, query: { range }, signal }),
    refetchInterval: REFRESH_MS[range],
    staleTime: range === '10m' ? Infinity : 5_000,
  });

/** A live sample as a history point of one second. */
export const livePoint = (s: StatsSample): HistorySample => ({
  time: s.time,
  cpu_percent: s.cpu_percent,
  cpu_max: s.cpu_percent,
  mem_current: s.mem_current,
  mem_max: s.mem_current,
});

/**
 * The chart's points: the kept history, then the live samples newer than its last point, cut to
 * the range's window (the history fills the chart at once; the stream extends it).
 */
export function mergeHistory(
  history: readonly HistorySample[],
  live: readonly StatsSample[],
  windowSeconds: number,
  now = Date.now(),
): HistorySample[] {
  const lastKept = history.length ? Date.parse(history[history.length - 1]!.time) : -Infinity;
  const from = now - windowSeconds * 1000;
  const fresh = live.filter((s) => Math.floor(Date.parse(s.time) / 1000) * 1000 > lastKept).map(livePoint);
  return [...history, ...fresh].filter((p) => Date.parse(p.time) >= from);
}

/** Samples of a step normally follow each other; a silence of three steps (a stopped app, a restart of Berth) is a gap. */
const GAP_STEPS = 3;

/**
 * Chart columns: the times (seconds) and, per pick, one value per point, with a null column put
 * where the points have a gap, so the line breaks there instead of bridging it.
 */
export function chartColumns(
  points: readonly HistorySample[],
  step: number,
  picks: ((p: HistorySample) => number)[],
): { times: number[]; values: (number | null)[][] } {
  const times: number[] = [];
  const values: (number | null)[][] = picks.map(() => []);
  let before: number | undefined;
  for (const p of points) {
    const t = Date.parse(p.time) / 1000;
    if (before !== undefined && t - before > GAP_STEPS * step) {
      times.push(before + step);
      for (const v of values) v.push(null);
    }
    before = t;
    times.push(t);
    picks.forEach((pick, i) => values[i]!.push(pick(p)));
  }
  return { times, values };
}
