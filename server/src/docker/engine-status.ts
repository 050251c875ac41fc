import type { FastifyBaseLogger } from 'fastify';
import type { Engine } from './engine';
import { DockerUnavailableError } from '../errors';
import { withTimeout } from '../lib/timeout';

export interface EngineState {
  reachable: boolean;
  version: string | null;
  apiVersion: string | null;
  error: string | null;
}

/**
 * Watches whether the engine answers. Berth starts without it; while it is away the
 * watcher pings every few seconds and tells listeners when it comes back.
 */
export class EngineStatus {
  private state: EngineState = { reachable: false, version: null, apiVersion: null, error: 'not checked yet' };
  private timer: NodeJS.Timeout | null = null;
  private listeners = new Set<(s: EngineState) => void>();

  constructor(
    private readonly docker: Engine,
    private readonly log: FastifyBaseLogger,
    private readonly intervalMs = 3000,
  ) {}

  get current(): EngineState {
    return this.state;
  }

  onChange(fn: (s: EngineState) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  async check(): Promise<EngineState> {
    const before = this.state.reachable;
    try {
      const v = await withTimeout(this.docker.version(), 5000, 'engine version timed out');
      this.state = { reachable: true, version: v.Version ?? null, apiVersion: v.ApiVersion ?? null, error: null };
    } catch (err) {
      const reason = err instanceof DockerUnavailableError ? 'The Docker engine is not reachable.' : 'The Docker engine did not answer.';
      this.state = { reachable: false, version: null, apiVersion: null, error: reason };
    }
    if (before !== this.state.reachable) {
      if (this.state.reachable) this.log.info({ version: this.state.version }, 'docker engine reachable');
      else this.log.warn('docker engine unreachable; retrying');
      for (const fn of this.listeners) fn(this.state);
    }
    return this.state;
  }

  /** Marks the engine as gone after a failed call, so the next check happens soon. */
  markUnreachable(): void {
    if (!this.state.reachable) return;
    this.state = { ...this.state, reachable: false, error: 'The Docker engine is not reachable.' };
    for (const fn of this.listeners) fn(this.state);
  }

  start(): void {
    if (this.timer) return;
    const tick = async () => {
      await this.check();
      this.timer = setTimeout(tick, this.state.reachable ? this.intervalMs * 5 : this.intervalMs);
      this.timer.unref();
    };
    void tick();
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.listeners.clear();
  }
}
