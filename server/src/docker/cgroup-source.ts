import fs from 'node:fs';
import type { FastifyBaseLogger } from 'fastify';
import {
  detectLayout,
  findContainerCgroup,
  parseProcStat,
  readContainerStats,
  type CgroupLayout,
  type ContainerCgroup,
  type SystemCpu,
} from './cgroup-files';
import type { StatsSource, StatsSourceHandle, StatsTarget } from './stats-hub';
import { toReading, type EngineStats, type StatsReading } from './stats-math';

export interface CgroupSourceOptions {
  root: string;
  layout: CgroupLayout;
  /** Containers whose cgroup is not in this tree are sampled by this one (the engine source). */
  fallback: StatsSource;
  log: FastifyBaseLogger;
  /** The host's CPU counters (recorded files in unit tests). */
  procStat?: string;
  intervalMs?: number;
}

interface Watch {
  cg: ContainerCgroup;
  previous: EngineStats;
  onReading: (r: StatsReading) => void;
  onEnd: (reason: 'stopped' | 'error', err?: unknown) => void;
}

/**
 * Samples every watched container from its cgroup files on one shared one-second tick: one read
 * of /proc/stat and three or four small file reads per container, instead of an engine stats
 * stream each (which costs the engine about 15 % of a core for 50 containers).
 */
export class CgroupStatsSource implements StatsSource {
  readonly kind = 'cgroup';
  private watches = new Set<Watch>();
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly opts: CgroupSourceOptions) {}

  /** A cgroup source when the tree at `root` is readable, else null (the caller keeps the engine source). */
  static detect(root: string, fallback: StatsSource, log: FastifyBaseLogger): CgroupStatsSource | null {
    const layout = detectLayout(root);
    return layout ? new CgroupStatsSource({ root, layout, fallback, log }) : null;
  }

  get layout(): CgroupLayout {
    return this.opts.layout;
  }

  open(
    target: StatsTarget,
    onReading: (r: StatsReading) => void,
    onEnd: (reason: 'stopped' | 'error', err?: unknown) => void,
  ): StatsSourceHandle {
    const cg = findContainerCgroup(this.opts.root, this.opts.layout, target.id);
    const system = cg && this.system();
    let first: EngineStats | null = null;
    try {
      if (cg && system) first = readContainerStats(cg, system);
    } catch (err) {
      this.opts.log.debug({ err, container: target.name }, 'cgroup files unreadable; using the engine source');
    }
    if (!cg || !first) return this.opts.fallback.open(target, onReading, onEnd);
    const watch: Watch = { cg, previous: first, onReading, onEnd };
    this.watches.add(watch);
    this.timer ??= setInterval(() => this.tick(), this.opts.intervalMs ?? 1000);
    return { close: () => this.drop(watch) };
  }

  private drop(w: Watch): void {
    this.watches.delete(w);
    if (this.watches.size === 0 && this.timer) {
      clearInterval(this.timer);
      this.timer = null;
    }
  }

  private system(): SystemCpu | null {
    try {
      return parseProcStat(fs.readFileSync(this.opts.procStat ?? '/proc/stat', 'utf8'));
    } catch (err) {
      this.opts.log.debug({ err }, 'cannot read the host CPU counters');
      return null;
    }
  }

  private tick(): void {
    const system = this.system();
    if (!system) return;
    const now = new Date();
    for (const w of [...this.watches]) {
      let sample: EngineStats;
      try {
        sample = readContainerStats(w.cg, system, undefined, now);
      } catch (err) {
        // The files went away: the container stopped or restarts. The hub asks the engine which.
        this.drop(w);
        w.onEnd('error', err);
        continue;
      }
      const reading = toReading(sample, w.previous);
      w.previous = sample;
      if (reading) w.onReading(reading);
    }
  }
}
