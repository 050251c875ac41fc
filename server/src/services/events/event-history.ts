import type { EngineEventRecord, EventsQuery } from '@berth/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { EventsRepo, NewEngineEvent } from '../../db/events-repo';
import { WriteQueue } from '../storage/write-queue';
import type { EngineEvents, EngineObjectEvent } from '../../docker/events';
import type { SseStream } from '../../lib/sse';

/** Health checks run an exec every few seconds; their exec_* events would drown everything else. */
const SKIPPED_ACTION = /^(exec_|attach$|detach$|resize$|copy$|archive-path$|extract-to-dir$|top$)/;
/** Attributes worth keeping; a container's other labels are the app's business (and may be long). */
const KEPT_ATTRIBUTES = new Set([
  'name',
  'image',
  'exitCode',
  'signal',
  'container',
  'type',
  'driver',
  'com.docker.compose.project',
  'com.docker.compose.service',
]);
const PRUNE_EVERY_MS = 10 * 60 * 1000;
const REPLAY_LIMIT = 1000;

export interface EventHistoryOptions {
  environment: string;
  retentionMs: number;
  maxRows: number;
}

export type RecordedListener = (e: EngineEventRecord) => void;
export type EventsStreamFilter = Pick<EventsQuery, 'type' | 'action' | 'name' | 'since'>;

/**
 * Keeps one engine's events (all followed object types) in SQLite for a retention period and a
 * row bound, and serves them as history and as a live stream. One per environment.
 */
export class EventHistory {
  private readonly listeners = new Set<RecordedListener>();
  private off: (() => void) | null = null;
  private pruneTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly repo: EventsRepo,
    private readonly events: EngineEvents,
    private readonly opts: EventHistoryOptions,
    private readonly log: FastifyBaseLogger,
  ) {
    this.queue = new WriteQueue('engine event', (row) => this.store(row), log);
  }

  /** Events wait here while another process holds the database's write lock (or the disk is full), in order. */
  private readonly queue: WriteQueue<NewEngineEvent>;

  start(): void {
    if (this.off) return;
    this.off = this.events.subscribeObjects(this.record);
    this.prune();
    this.pruneTimer = setInterval(() => this.prune(), PRUNE_EVERY_MS);
    this.pruneTimer.unref();
  }

  close(): void {
    this.off?.();
    this.off = null;
    if (this.pruneTimer) clearInterval(this.pruneTimer);
    this.queue.close();
    this.listeners.clear();
  }

  /** Hears every event once it is stored (notifications listen here). */
  onRecorded(fn: RecordedListener): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  list(q: EventsQuery): EngineEventRecord[] {
    return this.repo.find({ ...q, environment: this.opts.environment });
  }

  /** Live events matching `filter`; with `since`, the stored ones from then first, with no gap and no repeat. */
  async stream(filter: EventsStreamFilter, sse: SseStream): Promise<void> {
    const matches = (e: EngineEventRecord) =>
      (!filter.type || e.type === filter.type) &&
      (!filter.action || e.action === filter.action) &&
      (!filter.name || e.name === filter.name);
    let lastId = 0;
    let queue: EngineEventRecord[] | null = [];
    const send = async (e: EngineEventRecord) => {
      if (e.id <= lastId || !matches(e)) return;
      lastId = e.id;
      await sse.send(e);
    };
    const off = this.onRecorded((e) => {
      if (queue) queue.push(e);
      else void send(e);
    });
    sse.signal.addEventListener('abort', off);
    if (sse.signal.aborted) off();
    if (filter.since !== undefined) {
      const { since, ...rest } = filter;
      for (const e of this.repo.find({ ...rest, since, environment: this.opts.environment, limit: REPLAY_LIMIT }, true))
        await send(e);
    }
    for (const e of queue) await send(e);
    queue = null;
  }

  /** Keeps an event Berth itself made about a container (an auto-heal restart), beside the engine's own. */
  note(e: { actorId: string; name: string; action: string; attributes: Record<string, string> }): void {
    this.queue.push({ ...e, time: Date.now(), environment: this.opts.environment, type: 'container' });
  }

  private record = (e: EngineObjectEvent): void => {
    if (SKIPPED_ACTION.test(e.action)) return;
    const attributes = Object.fromEntries(Object.entries(e.attributes).filter(([k]) => KEPT_ATTRIBUTES.has(k)));
    this.queue.push({
      time: e.time,
      environment: this.opts.environment,
      type: e.type,
      action: e.action,
      actorId: e.id,
      name: e.attributes.name ?? e.id,
      attributes,
    });
  };

  /** Stores one event (the queue retries it while the database is busy or full), then tells the listeners. */
  private store(row: NewEngineEvent): void {
    const stored = this.repo.insert(row);
    for (const fn of [...this.listeners]) {
      try {
        fn(stored);
      } catch (err) {
        this.log.error({ err }, 'engine event history listener failed');
      }
    }
  }

  private prune(): void {
    try {
      const gone = this.repo.prune(Date.now() - this.opts.retentionMs, this.opts.maxRows);
      if (gone) this.log.debug({ gone }, 'old engine events pruned');
    } catch (err) {
      this.log.error({ err }, 'could not prune engine events');
    }
  }
}
