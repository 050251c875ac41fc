import type { FastifyBaseLogger } from 'fastify';
import type { HistoryRange, HistorySample, StatsHistory as StatsHistoryBody, StatsSample } from '@berth/contract';
import type { HistoryBucket, HistoryPoint, Resolution, StatsHistoryRepo } from '../../db/stats-history-repo';
import type { StatsHub } from '../../docker/stats-hub';

/** How long each resolution is kept, in seconds. */
export const KEEP_SECONDS: Record<Resolution, number> = { 1: 10 * 60, 10: 24 * 3600, 60: 7 * 24 * 3600 };

/** Which kept resolution answers a range, and the step it is served at (7 days at 1 min would be 10,080 points). */
const RANGES: Record<HistoryRange, { seconds: number; res: Resolution; step: number }> = {
  '10m': { seconds: 10 * 60, res: 1, step: 1 },
  '1h': { seconds: 3600, res: 10, step: 10 },
  '24h': { seconds: 24 * 3600, res: 60, step: 60 },
  '7d': { seconds: 7 * 24 * 3600, res: 60, step: 600 },
};

const FLUSH_MS = 1000;
const PURGE_MS = 60_000;
const round1 = (v: number) => Math.round(v * 10) / 10;

/**
 * Merges buckets into buckets of `step` seconds: sums add (so the mean stays the mean of every
 * reading, however the readings were grouped before) and the max is the max of the maxes.
 */
export function downsample(buckets: HistoryBucket[], step: number): HistoryBucket[] {
  const out: HistoryBucket[] = [];
  for (const b of buckets) {
    const t = b.t - (b.t % step);
    const last = out[out.length - 1];
    if (last && last.t === t) {
      last.n += b.n;
      last.cpuSum += b.cpuSum;
      last.memSum += b.memSum;
      last.cpuMax = Math.max(last.cpuMax, b.cpuMax);
      last.memMax = Math.max(last.memMax, b.memMax);
    } else out.push({ ...b, t });
  }
  return out;
}

export const toHistorySample = (b: HistoryBucket): HistorySample => ({
  time: new Date(b.t * 1000).toISOString(),
  cpu_percent: round1(b.cpuSum / b.n),
  cpu_max: round1(b.cpuMax),
  mem_current: Math.round(b.memSum / b.n),
  mem_max: b.memMax,
});

/**
 * Records every running app's samples of one environment (it watches the hub like a dashboard
 * that never leaves) and answers history queries. Writes go to disk once a second in one
 * transaction; each resolution's old buckets are purged once a minute.
 */
export class StatsHistory {
  /** Each running app's newest sample (the metrics read it). */
  readonly latest = new Map<string, StatsSample>();
  private pending: HistoryPoint[] = [];
  private off: (() => void) | null = null;
  private timers: NodeJS.Timeout[] = [];

  constructor(
    private readonly repo: StatsHistoryRepo,
    private readonly env: string,
    private readonly log: FastifyBaseLogger,
  ) {}

  start(hub: StatsHub): void {
    this.off = hub.watchAll({ sample: (s) => this.record(s), removed: (name) => this.latest.delete(name) });
    this.timers.push(
      setInterval(() => this.flush(), FLUSH_MS).unref(),
      setInterval(() => this.purge(), PURGE_MS).unref(),
    );
    this.purge();
  }

  query(app: string, range: HistoryRange, now = Date.now()): StatsHistoryBody {
    this.flush();
    const r = RANGES[range];
    const since = Math.floor(now / 1000) - r.seconds;
    const buckets = this.repo.buckets(this.env, app, r.res, since - (since % r.step));
    return { step: r.step, samples: downsample(buckets, r.step).map(toHistorySample) };
  }

  /** One app's kept buckets of the last `seconds`, at the finest resolution still holding them all. */
  recent(app: string, seconds: number, now = Date.now()): HistoryBucket[] {
    this.flush();
    const res: Resolution = seconds < KEEP_SECONDS[1] ? 1 : seconds < KEEP_SECONDS[10] ? 10 : 60;
    return this.repo.buckets(this.env, app, res, Math.floor(now / 1000) - seconds);
  }

  close(): void {
    this.off?.();
    this.off = null;
    for (const t of this.timers) clearInterval(t);
    this.timers = [];
    this.flush();
  }

  private record(s: StatsSample): void {
    this.latest.set(s.name, s);
    const ms = Date.parse(s.time);
    this.pending.push({
      env: this.env,
      app: s.name,
      time: Math.floor((Number.isFinite(ms) ? ms : Date.now()) / 1000),
      cpu: s.cpu_percent,
      mem: s.mem_current,
    });
  }

  private flush(): void {
    if (!this.pending.length) return;
    const points = this.pending;
    this.pending = [];
    try {
      this.repo.add(points);
    } catch (err) {
      // A full or read-only disk costs history, never the live stats.
      this.log.warn({ err }, 'stats history write failed');
    }
  }

  private purge(): void {
    try {
      this.repo.purge(Math.floor(Date.now() / 1000), KEEP_SECONDS);
    } catch (err) {
      this.log.warn({ err }, 'stats history purge failed');
    }
  }
}
