import type { FastifyBaseLogger } from 'fastify';
import type { StatsSample, StatsSourceKind } from '@berth/contract';
import type { Engine } from './engine';
import { NotFoundError } from '../errors';
import type { EngineEvent, EngineEvents } from './events';
import { isEmptySample, toReading, type EngineStats, type StatsReading } from './stats-math';

export interface StatsTarget {
  id: string;
  name: string;
}

export interface StatsSourceHandle {
  close(): void;
}

/**
 * Where samples come from: the engine's stats API (EngineStatsSource below) or the host's cgroup
 * files (CgroupStatsSource, which hands containers it cannot find to the engine source).
 */
export interface StatsSource {
  readonly kind: StatsSourceKind;
  /**
   * Samples one running container about once a second until closed. `onEnd` fires at most once,
   * when sampling stops by itself: 'stopped' when the container is not running, 'error' otherwise.
   */
  open(
    target: StatsTarget,
    onReading: (r: StatsReading) => void,
    onEnd: (reason: 'stopped' | 'error', err?: unknown) => void,
  ): StatsSourceHandle;
}

/** A viewer of one app (its stats page). */
export interface AppStatsListener {
  sample(s: StatsSample): void;
  state(state: 'running' | 'stopped' | 'removed'): void;
}

/** A viewer of every running app (the dashboard). */
export interface DashboardListener {
  sample(s: StatsSample): void;
  removed(name: string): void;
}

export interface StatsHubDeps {
  source: StatsSource;
  events: EngineEvents;
  /** The running containers, in one engine call. */
  listRunning: () => Promise<StatsTarget[]>;
  /** Whether one container runs now; null when it no longer exists. Rejects when the engine is away. */
  probe: (id: string) => Promise<{ running: boolean; name: string } | null>;
  log: FastifyBaseLogger;
}

interface Entry {
  id: string;
  name: string;
  running: boolean;
  handle: StatsSourceHandle | null;
  listeners: Set<AppStatsListener>;
  last: StatsSample | null;
}

/**
 * Fans samples out to every viewer: one source stream per running container however many
 * dashboards and app pages watch it, opened with the first viewer and closed after the last.
 * Dashboards follow engine events, so apps appear and disappear without a reconnect.
 */
export class StatsHub {
  private entries = new Map<string, Entry>();
  private dashboards = new Set<DashboardListener>();
  private offEvents: (() => void) | null = null;
  private closed = false;
  private received = 0;

  constructor(private readonly deps: StatsHubDeps) {}

  /** How many source streams are open right now (the benchmark and tests read it). */
  get openStreams(): number {
    let n = 0;
    for (const e of this.entries.values()) if (e.handle) n++;
    return n;
  }

  /** Samples received from the source since start (the benchmark compares it with what viewers get). */
  get samplesReceived(): number {
    return this.received;
  }

  get source(): StatsSourceKind {
    return this.deps.source.kind;
  }

  /** Watches one app. `running` is what the caller just read; the hub corrects it from events. */
  watch(target: StatsTarget & { running: boolean }, listener: AppStatsListener): () => void {
    const entry = this.entry(target.id, target.name);
    entry.listeners.add(listener);
    this.subscribeEvents();
    if (entry.last) listener.sample(entry.last);
    if (target.running) this.setRunning(entry, true);
    // It may have started between the caller's read and our event subscription.
    else void this.deps.events.whenConnected().then(() => this.recheck(entry));
    this.sync(entry);
    return () => {
      entry.listeners.delete(listener);
      this.sync(entry);
      this.unsubscribeEventsIfIdle();
    };
  }

  /** Watches every running app. */
  watchAll(listener: DashboardListener): () => void {
    this.dashboards.add(listener);
    this.subscribeEvents();
    if (this.dashboards.size === 1) void this.reconcile();
    else for (const e of this.entries.values()) if (e.running && e.last) listener.sample(e.last);
    return () => {
      this.dashboards.delete(listener);
      for (const e of [...this.entries.values()]) this.sync(e);
      this.unsubscribeEventsIfIdle();
    };
  }

  close(): void {
    this.closed = true;
    for (const e of this.entries.values()) e.handle?.close();
    this.entries.clear();
    this.dashboards.clear();
    this.offEvents?.();
    this.offEvents = null;
  }

  private entry(id: string, name: string): Entry {
    let e = this.entries.get(id);
    if (!e) {
      e = { id, name, running: false, handle: null, listeners: new Set(), last: null };
      this.entries.set(id, e);
    } else if (name) {
      e.name = name;
    }
    return e;
  }

  /** Opens or closes the entry's stream to match who watches it; forgets it when nobody does. */
  private sync(e: Entry): void {
    if (this.entries.get(e.id) !== e) return;
    const watched = e.listeners.size > 0 || this.dashboards.size > 0;
    if (watched && e.running && !e.handle && !this.closed) this.open(e);
    if ((!watched || !e.running) && e.handle) {
      e.handle.close();
      e.handle = null;
    }
    if (e.listeners.size === 0 && (this.dashboards.size === 0 || !e.running)) this.entries.delete(e.id);
  }

  private open(e: Entry): void {
    const handle = this.deps.source.open(
      { id: e.id, name: e.name },
      (reading) => {
        if (e.handle !== handle) return;
        this.received++;
        const sample: StatsSample = { name: e.name, ...reading };
        e.last = sample;
        for (const l of [...e.listeners]) l.sample(sample);
        for (const d of [...this.dashboards]) d.sample(sample);
      },
      (reason, err) => {
        if (e.handle !== handle) return;
        e.handle = null;
        if (reason === 'stopped') this.setRunning(e, false);
        else {
          this.deps.log.debug({ err, container: e.name }, 'stats stream ended; checking the container');
          setTimeout(() => void this.recheck(e), 1000).unref();
        }
      },
    );
    e.handle = handle;
  }

  private setRunning(e: Entry, running: boolean): void {
    if (e.running !== running) {
      e.running = running;
      if (!running) {
        for (const d of [...this.dashboards]) d.removed(e.name);
        e.last = null;
      }
      for (const l of [...e.listeners]) l.state(running ? 'running' : 'stopped');
    }
    this.sync(e);
  }

  /** Asks the engine whether the container runs (after a gap or an unexpected end of its stream). */
  private async recheck(e: Entry): Promise<void> {
    if (this.entries.get(e.id) !== e || this.closed) return;
    try {
      const now = await this.deps.probe(e.id);
      if (this.entries.get(e.id) !== e) return;
      if (!now) return this.removed(e);
      e.name = now.name || e.name;
      this.setRunning(e, now.running);
    } catch (err) {
      // The engine is away: the event stream resyncs everyone when it returns.
      this.deps.log.debug({ err, container: e.name }, 'stats recheck failed');
    }
  }

  private removed(e: Entry): void {
    this.setRunning(e, false);
    for (const l of [...e.listeners]) l.state('removed');
    e.handle?.close();
    this.entries.delete(e.id);
  }

  /** Dashboards: make the set of streams match the running containers. */
  private async reconcile(): Promise<void> {
    if (this.dashboards.size === 0) return;
    let running: StatsTarget[];
    try {
      running = await this.deps.listRunning();
    } catch (err) {
      this.deps.log.debug({ err }, 'stats reconcile failed; waiting for the engine');
      return;
    }
    if (this.dashboards.size === 0 || this.closed) return;
    const ids = new Set(running.map((t) => t.id));
    for (const t of running) this.setRunning(this.entry(t.id, t.name), true);
    for (const e of [...this.entries.values()]) if (e.running && !ids.has(e.id)) this.setRunning(e, false);
  }

  private onEvent = (ev: EngineEvent): void => {
    if (ev.kind === 'resync') {
      void this.reconcile();
      for (const e of [...this.entries.values()]) if (e.listeners.size) void this.recheck(e);
      return;
    }
    const known = this.entries.get(ev.id);
    switch (ev.action) {
      case 'start':
      case 'restart':
        if (known || this.dashboards.size) this.setRunning(this.entry(ev.id, ev.name), true);
        break;
      case 'die':
        if (known) this.setRunning(known, false);
        break;
      case 'destroy':
        if (known) this.removed(known);
        break;
      case 'rename':
        if (known && ev.name && ev.name !== known.name) {
          if (known.running) for (const d of [...this.dashboards]) d.removed(known.name);
          known.name = ev.name;
        }
        break;
    }
  };

  private subscribeEvents(): void {
    if (!this.offEvents && !this.closed) this.offEvents = this.deps.events.subscribe(this.onEvent);
  }

  private unsubscribeEventsIfIdle(): void {
    if (this.dashboards.size === 0 && this.entries.size === 0) {
      this.offEvents?.();
      this.offEvents = null;
    }
  }
}

type Stream = NodeJS.ReadableStream & { destroy?: () => void };

/** The engine's streaming stats API: one HTTP stream per container, about one sample a second. */
export class EngineStatsSource implements StatsSource {
  readonly kind = 'engine';

  constructor(private readonly docker: Engine) {}

  open(
    target: StatsTarget,
    onReading: (r: StatsReading) => void,
    onEnd: (reason: 'stopped' | 'error', err?: unknown) => void,
  ): StatsSourceHandle {
    const abort = new AbortController();
    let stream: Stream | null = null;
    let done = false;
    const stop = () => {
      done = true;
      abort.abort();
      stream?.destroy?.();
    };
    const finish = (reason: 'stopped' | 'error', err?: unknown) => {
      if (done) return;
      stop();
      onEnd(reason, err);
    };
    this.docker.stats(target.id, abort.signal).then(
      (s: Stream) => {
        stream = s;
        if (done) return void s.destroy?.();
        let buffer = '';
        let previous: EngineStats | undefined;
        s.on('data', (chunk: Buffer) => {
          buffer += chunk.toString('utf8');
          let nl: number;
          while (!done && (nl = buffer.indexOf('\n')) !== -1) {
            const line = buffer.slice(0, nl).trim();
            buffer = buffer.slice(nl + 1);
            if (!line) continue;
            let sample: EngineStats;
            try {
              sample = JSON.parse(line) as EngineStats;
            } catch (err) {
              return finish('error', err);
            }
            // After the container stops the engine keeps the stream open with empty samples.
            if (isEmptySample(sample)) return finish('stopped');
            // The first frame of a stream has no earlier CPU reading to compare with: its CPU would be
            // a 0 nobody measured, so viewers get the second frame as their first.
            const measured = previous !== undefined || Boolean(sample.precpu_stats?.system_cpu_usage);
            const reading = toReading(sample, previous);
            previous = sample;
            if (reading && measured) onReading(reading);
          }
        });
        s.on('end', () => finish('error'));
        s.on('close', () => finish('error'));
        s.on('error', (err: Error) => finish('error', err));
      },
      (err: unknown) => finish(err instanceof NotFoundError ? 'stopped' : 'error', err),
    );
    return { close: stop };
  }
}
