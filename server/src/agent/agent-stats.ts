import http from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import { CgroupStatsSource } from '../docker/cgroup-source';
import type { StatsSource, StatsSourceHandle } from '../docker/stats-hub';
import type { StatsReading } from '../docker/stats-math';
import type { AgentStatsMessage } from '../docker/agent-stats-source';

/** Containers the cgroup tree does not hold are left out (Berth then asks the engine for them). */
const NONE: StatsSource = { kind: 'engine', open: () => ({ close: () => undefined }) };

/**
 * Reads every running container's CPU and memory from this host's cgroup files (Berth's own
 * CgroupStatsSource, one tick a second for all of them) and hands them on in one message per
 * tick. Which containers run comes from one list at start and the engine's events after, so the
 * engine is not polled.
 */
export class StatsPusher {
  private readonly source: CgroupStatsSource | null;
  private readonly handles = new Map<string, StatsSourceHandle>();
  private readonly readings = new Map<string, StatsReading>();
  private flushing = false;
  private events: http.ClientRequest | null = null;
  private retry: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(
    private readonly dockerSocket: string,
    cgroupRoot: string,
    private readonly log: FastifyBaseLogger,
    private readonly send: (msg: AgentStatsMessage) => void,
  ) {
    this.source = CgroupStatsSource.detect(cgroupRoot, NONE, log);
    if (!this.source) log.warn({ cgroupRoot }, 'no readable cgroup tree: Berth reads stats from the engine');
  }

  start(): void {
    if (!this.source) return;
    this.follow();
  }

  stop(): void {
    this.stopped = true;
    this.events?.destroy();
    if (this.retry) clearTimeout(this.retry);
    for (const h of this.handles.values()) h.close();
    this.handles.clear();
  }

  /** Subscribes to container events, then lists what runs (so nothing starts unseen in between). */
  private follow(): void {
    if (this.stopped) return;
    const filters = encodeURIComponent(JSON.stringify({ type: ['container'], event: ['start', 'die', 'destroy'] }));
    const req = http.get({ socketPath: this.dockerSocket, path: `/events?filters=${filters}` }, (res) => {
      let buffer = '';
      res.on('data', (chunk: Buffer) => {
        buffer += chunk.toString('utf8');
        for (let nl = buffer.indexOf('\n'); nl !== -1; nl = buffer.indexOf('\n')) {
          const line = buffer.slice(0, nl);
          buffer = buffer.slice(nl + 1);
          try {
            const e = JSON.parse(line) as { Action?: string; Actor?: { ID?: string } };
            const id = e.Actor?.ID;
            if (!id) continue;
            if (e.Action === 'start') this.watch(id);
            else this.unwatch(id);
          } catch {
            // not an event line
          }
        }
      });
      res.on('close', () => this.again());
      void this.list();
    });
    req.on('error', () => this.again());
    this.events = req;
  }

  private again(): void {
    if (this.stopped || this.retry) return;
    this.retry = setTimeout(() => {
      this.retry = null;
      this.follow();
    }, 2000);
  }

  private async list(): Promise<void> {
    const body = await new Promise<string>((resolve, reject) => {
      http
        .get({ socketPath: this.dockerSocket, path: '/containers/json' }, (res) => {
          let text = '';
          res.on('data', (c: Buffer) => (text += c.toString('utf8')));
          res.on('end', () => resolve(text));
        })
        .on('error', reject);
    }).catch((err: unknown) => {
      this.log.warn({ err }, 'cannot list the running containers');
      return '[]';
    });
    try {
      for (const c of JSON.parse(body) as { Id: string }[]) this.watch(c.Id);
    } catch {
      // an engine error answer: the event stream's retry lists again
    }
  }

  private watch(id: string): void {
    if (this.handles.has(id) || !this.source) return;
    const handle = this.source.open(
      { id, name: id },
      (r) => this.reading(id, r),
      () => this.unwatch(id),
    );
    this.handles.set(id, handle);
  }

  private unwatch(id: string): void {
    this.handles.get(id)?.close();
    this.handles.delete(id);
  }

  /** The source reads every container in one synchronous tick: the message goes right after it. */
  private reading(id: string, r: StatsReading): void {
    this.readings.set(id, r);
    if (this.flushing) return;
    this.flushing = true;
    setImmediate(() => {
      this.flushing = false;
      const rows: AgentStatsMessage['rows'] = [];
      let time = '';
      for (const [cid, x] of this.readings) {
        rows.push([cid, x.cpu_percent, x.mem_percent, x.mem_current, x.mem_total]);
        time = x.time;
      }
      this.readings.clear();
      if (rows.length) this.send({ type: 'stats', time, rows });
    });
  }
}
