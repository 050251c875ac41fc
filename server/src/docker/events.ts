import type { FastifyBaseLogger } from 'fastify';
import type { Engine } from './engine';
import type { EngineStatus } from './engine-status';
import { DockerUnavailableError } from '../errors';

/** A container event from the engine (start, die, destroy, rename, create, pause…). */
export interface ContainerEvent {
  kind: 'container';
  action: string;
  id: string;
  /** The container's name at the time of the event (after a rename: the new one). */
  name: string;
}

/**
 * Sent after the subscription was (re)established following a gap: events may have been
 * missed, so listeners should re-read what they track.
 */
export interface ResyncEvent {
  kind: 'resync';
}

export type EngineEvent = ContainerEvent | ResyncEvent;
export type EngineEventListener = (e: EngineEvent) => void;

/** The object kinds whose events Berth follows (service and node exist on swarm managers only). */
export const EVENT_TYPES = ['container', 'image', 'volume', 'network', 'service', 'node'] as const;
export type EngineObjectType = (typeof EVENT_TYPES)[number];

/** Any followed engine event as the engine sent it, for the history and notifications. */
export interface EngineObjectEvent {
  type: EngineObjectType;
  action: string;
  id: string;
  /** The engine's time of the event, in milliseconds. */
  time: number;
  /** The same in nanoseconds as the engine sent it (past 2^53, so a close float: compare, never do sums that need every digit). */
  timeNano: number;
  /** The actor's attributes (a container's labels, name, image, exitCode...). */
  attributes: Record<string, string>;
}
export type EngineObjectListener = (e: EngineObjectEvent) => void;

interface RawEvent {
  Type?: string;
  time?: number;
  timeNano?: number;
  Action?: string;
  status?: string;
  id?: string;
  Actor?: { ID?: string; Attributes?: Record<string, string> };
}

const RETRY_MS = [500, 1000, 2000, 5000];

/** Nanoseconds as the engine's "seconds.nanoseconds" (a float's last digits are approximate). */
const engineTimeOf = (ns: number) => `${Math.floor(ns / 1e9)}.${String(Math.floor(ns % 1e9)).padStart(9, '0')}`;

/** One line of the engine's event stream as an event of a followed type; null for anything else. */
export function parseEngineEvent(line: string, log: FastifyBaseLogger): EngineObjectEvent | null {
  if (!line.trim()) return null;
  let raw: RawEvent;
  try {
    raw = JSON.parse(line) as RawEvent;
  } catch (err) {
    log.debug({ err }, 'unparsable engine event skipped');
    return null;
  }
  const id = raw.Actor?.ID ?? raw.id;
  const action = raw.Action ?? raw.status;
  const type = (raw.Type ?? 'container') as EngineObjectType;
  if (!id || !action || !EVENT_TYPES.includes(type)) return null;
  const timeNano = raw.timeNano ?? (raw.time ? raw.time * 1e9 : Date.now() * 1e6);
  return { type, action, id, time: Math.floor(timeNano / 1e6), timeNano, attributes: raw.Actor?.Attributes ?? {} };
}

/**
 * One engine event subscription (container, image, volume, network, service and node events)
 * shared by every listener in the process. `subscribe` hears container events only.
 * Opened on the first listener, closed after the last leaves; reconnects by itself when the
 * engine goes away and comes back, then tells listeners to resync.
 */
export class EngineEvents {
  private listeners = new Set<EngineEventListener>();
  private objectListeners = new Set<EngineObjectListener>();
  private abort: AbortController | null = null;
  private connected = false;
  private connectedSince = 0;
  private connectedWaiters: (() => void)[] = [];
  private retry = 0;
  private retryTimer: NodeJS.Timeout | null = null;
  private offEngine: (() => void) | null = null;
  private hadGap = false;
  private closed = false;
  /** The engine time (ns) of the last event seen: a stream reopened after a gap resumes from it. */
  private lastSeen = 0;

  constructor(
    private readonly docker: Engine,
    private readonly engine: EngineStatus,
    private readonly log: FastifyBaseLogger,
  ) {}

  /**
   * Resumes from an event seen before this process (the last one kept in the history): the first
   * subscription asks the engine for what it still holds since then, so a Berth restart leaves no
   * gap either (agent environments, whose engine keeps running while Berth is away).
   */
  resumeAfter(timeNano: number): void {
    if (this.lastSeen || !timeNano) return;
    this.lastSeen = timeNano;
    this.hadGap = true;
  }

  get isConnected(): boolean {
    return this.connected;
  }

  /** When (Date.now()) the subscription last opened; 0 while it is down. */
  get connectedAt(): number {
    return this.connected ? this.connectedSince : 0;
  }

  subscribe(fn: EngineEventListener): () => void {
    return this.listen(this.listeners, fn);
  }

  /** Every followed event of every object type (no resync notices). */
  subscribeObjects(fn: EngineObjectListener): () => void {
    return this.listen(this.objectListeners, fn);
  }

  private get listenerCount(): number {
    return this.listeners.size + this.objectListeners.size;
  }

  private listen<F>(set: Set<F>, fn: F): () => void {
    set.add(fn);
    if (this.listenerCount === 1) this.start();
    return () => {
      set.delete(fn);
      if (this.listenerCount === 0) this.stop();
    };
  }

  /** Resolves once the subscription is live (or after `timeoutMs`), so a caller can read state without missing a change. */
  whenConnected(timeoutMs = 2000): Promise<void> {
    if (this.connected || this.listenerCount === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(done, timeoutMs);
      timer.unref();
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.connectedWaiters.push(done);
    });
  }

  close(): void {
    this.closed = true;
    this.listeners.clear();
    this.objectListeners.clear();
    this.stop();
  }

  private start(): void {
    if (this.closed) return;
    this.offEngine ??= this.engine.onChange((s) => {
      if (s.reachable && !this.connected && !this.abort) this.connect();
    });
    this.connect();
  }

  private stop(): void {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    this.offEngine?.();
    this.offEngine = null;
    this.abort?.abort();
    this.abort = null;
    this.connected = false;
    this.hadGap = false;
    for (const w of this.connectedWaiters.splice(0)) w();
  }

  private connect(): void {
    if (this.closed || this.listenerCount === 0 || this.abort) return;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    const abort = new AbortController();
    this.abort = abort;
    // After a gap the engine replays what it still holds from the last event seen, so none is lost.
    const resumeFrom = this.hadGap && this.lastSeen ? this.lastSeen : 0;
    const range = resumeFrom ? { since: engineTimeOf(resumeFrom) } : undefined;
    this.docker.events({ type: [...EVENT_TYPES] }, abort.signal, range).then(
      (stream) => {
        if (abort.signal.aborted) {
          (stream as NodeJS.ReadableStream & { destroy?: () => void }).destroy?.();
          return;
        }
        this.connected = true;
        this.connectedSince = Date.now();
        this.retry = 0;
        for (const w of this.connectedWaiters.splice(0)) w();
        if (this.hadGap) this.emit({ kind: 'resync' });
        this.hadGap = false;
        let buffer = '';
        stream.on('data', (chunk: Buffer) => {
          buffer += chunk.toString('utf8');
          let nl: number;
          while ((nl = buffer.indexOf('\n')) !== -1) {
            this.handleLine(buffer.slice(0, nl), resumeFrom);
            buffer = buffer.slice(nl + 1);
          }
        });
        const ended = (err?: Error) => this.lost(abort, err);
        stream.on('end', () => ended());
        stream.on('error', ended);
        stream.on('close', () => ended());
      },
      (err: unknown) => this.lost(abort, err),
    );
  }

  /** `after`: events up to this time were seen before the gap (the replay repeats them). */
  private handleLine(line: string, after: number): void {
    const event = parseEngineEvent(line, this.log);
    if (!event || event.timeNano <= after) return;
    this.lastSeen = Math.max(this.lastSeen, event.timeNano);
    if (event.type === 'container')
      this.emit({ kind: 'container', action: event.action, id: event.id, name: event.attributes.name ?? '' });
    for (const fn of [...this.objectListeners]) {
      try {
        fn(event);
      } catch (err) {
        this.log.error({ err }, 'engine event listener failed');
      }
    }
  }

  private emit(e: EngineEvent): void {
    for (const fn of [...this.listeners]) {
      try {
        fn(e);
      } catch (err) {
        this.log.error({ err }, 'engine event listener failed');
      }
    }
  }

  /** The stream ended or never opened: retry, faster while the engine answers, else when it returns. */
  private lost(abort: AbortController, err?: unknown): void {
    if (this.abort !== abort) return;
    this.abort = null;
    const wasConnected = this.connected;
    this.connected = false;
    if (abort.signal.aborted || this.closed || this.listenerCount === 0) return;
    this.hadGap = true;
    if (err instanceof DockerUnavailableError) this.engine.markUnreachable();
    if (wasConnected) this.log.info('engine event stream lost; reconnecting');
    const delay = RETRY_MS[Math.min(this.retry++, RETRY_MS.length - 1)]!;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      // While the engine is away the status watcher calls connect() when it returns.
      if (this.engine.current.reachable) this.connect();
    }, delay);
    this.retryTimer.unref();
  }
}
