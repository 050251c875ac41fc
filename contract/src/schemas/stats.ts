import { z } from 'zod';

/**
 * One live sample of a running app, computed like `docker stats`: CPU in percent of one core
 * (a container busy on two cores reads 200) and memory without the inactive file cache.
 * Percentages carry one decimal; the UI rounds them.
 */
export const StatsSample = z.object({
  name: z.string(),
  /** The engine's read time of the sample (RFC 3339). */
  time: z.string(),
  cpu_percent: z.number(),
  mem_percent: z.number(),
  /** Bytes in use (cache excluded). */
  mem_current: z.number(),
  /** Bytes available: the container's memory limit, or the host's memory when it has none. */
  mem_total: z.number(),
});
export type StatsSample = z.infer<typeof StatsSample>;

/** Dashboard stream, event `remove`: the app stopped or was removed; drop its card. */
export const StatsRemoved = z.object({ name: z.string() });
export type StatsRemoved = z.infer<typeof StatsRemoved>;

/**
 * Per-app log and stats streams, event `status`: what the stream is waiting for. Sent when the
 * app stops, starts, is removed, or the engine goes away and comes back.
 */
export const StreamStatus = z.object({
  status: z.enum(['running', 'stopped', 'removed', 'engine_unreachable']),
  detail: z.string(),
});
export type StreamStatus = z.infer<typeof StreamStatus>;

/** Event names used on Berth's server-sent event streams. */
export const StreamEvent = {
  /** A stats sample (stats streams) or one log line (log stream). */
  update: 'update',
  /** Dashboard: an app left (data: StatsRemoved). */
  remove: 'remove',
  /** Per-app streams: StreamStatus. */
  status: 'status',
  /** Dashboard stream with ?format=tick: a StatsTick frame (see ./stats-tick). */
  tick: 'tick',
} as const;

/** How far back a stats history reaches. */
export const HISTORY_RANGES = ['10m', '1h', '24h', '7d'] as const;
export const HistoryRange = z.enum(HISTORY_RANGES, {
  error: () => `Unknown range; use one of: ${HISTORY_RANGES.join(', ')}.`,
});
export type HistoryRange = z.infer<typeof HistoryRange>;
export const StatsHistoryQuery = z.object({ range: HistoryRange.default('10m') });

/** One point of a stats history: the mean and the highest reading over `step` seconds from `time`. */
export const HistorySample = z.object({
  time: z.string(),
  cpu_percent: z.number(),
  cpu_max: z.number(),
  /** Mean bytes in use over the step (cache excluded). */
  mem_current: z.number(),
  mem_max: z.number(),
});
export type HistorySample = z.infer<typeof HistorySample>;

/** Kept at 1 s for 10 minutes, 10 s for 24 hours and 1 min for 7 days; oldest first. */
export const StatsHistory = z.object({
  /** Seconds each sample covers. */
  step: z.number(),
  samples: z.array(HistorySample),
});
export type StatsHistory = z.infer<typeof StatsHistory>;
