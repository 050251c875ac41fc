import type { FastifyBaseLogger } from 'fastify';
import type { Engine } from './engine';
import { DockerUnavailableError } from '../errors';
import { withStallAwareTimeout } from '../lib/timeout';

/** The wait before a failed check of an engine that was answering is made again (a failure counts once confirmed). */
const CONFIRM_AFTER_MS = 1000;

export interface EngineState {
  reachable: boolean;
  version: string | null;
  apiVersion: string | null;
  error: string | null;
}

/**
 * Watches whether the engine answers. Berth starts without it; while it is away the
 * watcher pings every few seconds (backing off up to `maxDownIntervalMs`) and tells listeners
 * when it comes back.
 */
export class EngineStatus {
  private state: EngineState = { reachable: false, version: null, apiVersion: null, error: 'not checked yet' };
  private timer: NodeJS.Timeout | null = null;
  private listeners = new Set<(s: EngineState) => void>();
  private lastCheck: Date | null = null;
  private downInterval: number;

  constructor(
    private readonly docker: Engine,
    private readonly log: FastifyBaseLogger,
    /** Where the engine is asked (`unix:///var/run/docker.sock`, `tcp://…`, `ssh://…`), named in logs and errors. */
    private readonly address: string,
    private readonly intervalMs = 3000,
    private readonly maxDownIntervalMs = intervalMs,
  ) {
    this.downInterval = intervalMs;
  }

  get current(): EngineState {
    return this.state;
  }

  /** When the engine was last asked (null before the first check). */
  get checkedAt(): Date | null {
    return this.lastCheck;
  }

  onChange(fn: (s: EngineState) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /**
   * Asks the engine now. `light`: while it answers and its version is known, a ping is enough
   * (the periodic watch); the version is read again when it comes back or on a full check.
   */
  async check(light = false): Promise<EngineState> {
    const before = this.state.reachable;
    const first = this.lastCheck === null;
    let reason = '';
    // An engine that was answering is declared gone only when a second look, a moment later, fails too.
    for (let attempt = 0; ; attempt++) {
      try {
        if (light && this.state.reachable && this.state.version !== null) {
          await withStallAwareTimeout(this.docker.ping(), 5000, 'engine ping timed out');
        } else {
          const v = await withStallAwareTimeout(this.docker.version(), 5000, 'engine version timed out');
          this.state = { reachable: true, version: v.Version ?? null, apiVersion: v.ApiVersion ?? null, error: null };
        }
        break;
      } catch (err) {
        if (before && attempt === 0) {
          await new Promise((r) => setTimeout(r, CONFIRM_AFTER_MS));
          continue;
        }
        const unavailable = err instanceof DockerUnavailableError;
        reason = unavailable ? (err.reason ?? err.message) : err instanceof Error ? err.message : String(err);
        const error = unavailable
          ? `The Docker engine at ${this.address} is not reachable${err.reason ? ` (${err.reason})` : ''}.`
          : `The Docker engine at ${this.address} did not answer.`;
        this.state = { reachable: false, version: null, apiVersion: null, error };
        break;
      }
    }
    this.lastCheck = new Date();
    // The first check logs either way: an engine absent from the start is said once, with the reason.
    if (first && !this.state.reachable) this.log.warn(`engine at ${this.address} not reachable: ${reason}; retrying`);
    if (before !== this.state.reachable) {
      if (this.state.reachable) this.log.info({ version: this.state.version }, `engine at ${this.address} reachable`);
      else if (!first) this.log.warn(`engine at ${this.address} not reachable: ${reason}; retrying`);
      for (const fn of this.listeners) fn(this.state);
      // Found gone outside the watch's own tick (a fresh check on request): look again soon, not after the long wait.
      if (!this.state.reachable) this.checkSoon();
    }
    return this.state;
  }

  /** Marks the engine as gone after a failed call, so the next check happens soon. */
  markUnreachable(): void {
    if (!this.state.reachable) return;
    this.state = { ...this.state, reachable: false, error: `The Docker engine at ${this.address} is not reachable.` };
    for (const fn of this.listeners) fn(this.state);
    this.checkSoon();
  }

  /** Moves a pending long wait forward to one short interval. */
  private checkSoon(): void {
    if (!this.running || !this.timer) return;
    clearTimeout(this.timer);
    this.downInterval = this.intervalMs;
    this.timer = setTimeout(this.tick, this.intervalMs);
    this.timer.unref();
  }

  private running = false;

  private readonly tick = async () => {
    this.timer = null;
    await this.check(true);
    const wait = this.state.reachable ? this.intervalMs * 5 : this.downInterval;
    this.downInterval = this.state.reachable
      ? this.intervalMs
      : Math.min(this.downInterval * 2, this.maxDownIntervalMs);
    // A stop() while the check ran ends the watch.
    if (!this.running || this.timer) return;
    this.timer = setTimeout(this.tick, wait);
    this.timer.unref();
  };

  start(): void {
    if (this.running) return;
    this.running = true;
    void this.tick();
  }

  stop(): void {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.listeners.clear();
  }
}
