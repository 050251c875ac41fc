import { StatsTickEncoder, StreamEvent } from '@berth/contract';
import type { StatsHub } from '../../docker/stats-hub';
import type { SseStream } from '../../lib/sse';

/** Samples arriving together (the cgroup source reads every app at once) go out this long after the first. */
const GATHER_MS = 25;
const TICK_MS = 1000;

interface Viewer {
  sse: SseStream;
  /** The tick of the last frame it was sent; null before its first. */
  since: number | null;
  sending: boolean;
}

/**
 * The dashboard stream's tick format for every viewer of one environment: the hub's samples are
 * gathered and committed at most once a second into one shared encoder, and each viewer gets one
 * `tick` event with what changed since the frame it got last. A frame is serialized once per tick
 * for all viewers that are level; a viewer that reads slowly is sent nothing until its last write
 * drained, then one frame covering everything it missed (latest wins: nothing queues).
 */
export class StatsTicker {
  private encoder = new StatsTickEncoder();
  private readonly viewers = new Set<Viewer>();
  private off: (() => void) | null = null;
  private timer: NodeJS.Timeout | null = null;
  private lastCommit = 0;
  /** This tick's frames as JSON, by the `since` they were made for. */
  private readonly json = new Map<number | null, string>();

  constructor(private readonly hub: StatsHub) {}

  watch(sse: SseStream): void {
    const viewer: Viewer = { sse, since: null, sending: false };
    this.viewers.add(viewer);
    sse.signal.addEventListener('abort', () => this.leave(viewer), { once: true });
    if (this.off) {
      if (this.encoder.tick > 0) void this.send(viewer);
      return;
    }
    this.off = this.hub.watchAll({
      sample: (s) => {
        this.encoder.stage(s);
        this.schedule();
      },
      removed: (name) => {
        this.encoder.stageRemoval(name);
        this.schedule();
      },
    });
  }

  private leave(viewer: Viewer): void {
    this.viewers.delete(viewer);
    if (this.viewers.size || !this.off) return;
    // Nobody watches: the hub stops sampling, so what is held would go stale. The next viewer starts afresh.
    this.off();
    this.off = null;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.encoder = new StatsTickEncoder();
    this.json.clear();
  }

  private schedule(): void {
    if (this.timer) return;
    const wait = Math.max(GATHER_MS, this.lastCommit + TICK_MS - Date.now());
    this.timer = setTimeout(() => this.commit(), wait);
  }

  private commit(): void {
    this.timer = null;
    this.lastCommit = Date.now();
    if (!this.encoder.commit(this.lastCommit)) return;
    this.json.clear();
    for (const v of this.viewers) void this.send(v);
  }

  private frameJson(since: number | null): string {
    let text = this.json.get(since);
    if (text === undefined) this.json.set(since, (text = JSON.stringify(this.encoder.frame(since))));
    return text;
  }

  private async send(v: Viewer): Promise<void> {
    if (v.sending) return;
    v.sending = true;
    try {
      while (!v.sse.closed && this.viewers.has(v) && v.since !== this.encoder.tick) {
        const text = this.frameJson(v.since);
        v.since = this.encoder.tick;
        await v.sse.send(text, StreamEvent.tick);
      }
    } finally {
      v.sending = false;
    }
  }
}
