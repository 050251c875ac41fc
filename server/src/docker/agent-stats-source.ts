import type { StatsSource, StatsSourceHandle, StatsTarget } from './stats-hub';
import type { StatsReading } from './stats-math';

/**
 * One pushed stats message of an agent: every running container's reading of one tick, read from
 * the agent host's cgroup files (CgroupStatsSource there). A row: [container id, cpu %, memory %,
 * bytes used, bytes available]; `time` is the tick's time on the agent.
 */
export interface AgentStatsMessage {
  type: 'stats';
  time: string;
  rows: [string, number, number, number, number][];
}

interface Watch {
  target: StatsTarget;
  onReading: (r: StatsReading) => void;
  onEnd: (reason: 'stopped' | 'error', err?: unknown) => void;
  /** Pushes in a row that did not carry this container. */
  missed: number;
  /** The engine stream it was handed to when the agent did not report it. */
  fallback: StatsSourceHandle | null;
}

/** A container the agent has not reported for this many pushes is sampled by the engine instead. */
const MISSES_BEFORE_FALLBACK = 3;

/**
 * The stats of an agent environment: the readings the agent pushes once a second for all its
 * running containers in one message, fanned out to the hub's watches. A container the agent does
 * not report (its cgroup is not where the agent looks) is sampled by the engine over the tunnel.
 */
export class AgentStatsSource implements StatsSource {
  readonly kind = 'cgroup';
  private readonly watches = new Map<string, Set<Watch>>();

  constructor(private readonly fallback: StatsSource) {}

  /** One message from the agent. */
  push(msg: AgentStatsMessage): void {
    const seen = new Set<string>();
    for (const [id, cpu, memPercent, memCurrent, memTotal] of msg.rows) {
      seen.add(id);
      const watches = this.watches.get(id);
      if (!watches) continue;
      const reading: StatsReading = {
        time: msg.time,
        cpu_percent: cpu,
        mem_percent: memPercent,
        mem_current: memCurrent,
        mem_total: memTotal,
      };
      for (const w of watches) {
        w.missed = 0;
        if (!w.fallback) w.onReading(reading);
      }
    }
    for (const [id, watches] of this.watches) {
      if (seen.has(id)) continue;
      for (const w of watches)
        if (!w.fallback && ++w.missed >= MISSES_BEFORE_FALLBACK)
          w.fallback = this.fallback.open(w.target, w.onReading, w.onEnd);
    }
  }

  open(
    target: StatsTarget,
    onReading: (r: StatsReading) => void,
    onEnd: (reason: 'stopped' | 'error', err?: unknown) => void,
  ): StatsSourceHandle {
    const watch: Watch = { target, onReading, onEnd, missed: 0, fallback: null };
    let set = this.watches.get(target.id);
    if (!set) this.watches.set(target.id, (set = new Set()));
    set.add(watch);
    return {
      close: () => {
        this.drop(target.id, watch);
        watch.fallback?.close();
      },
    };
  }

  private drop(id: string, w: Watch): void {
    const set = this.watches.get(id);
    set?.delete(w);
    if (set?.size === 0) this.watches.delete(id);
  }
}
