import type { ActionEnd, ActionState } from '@berth/contract';
import { ConflictError } from '../errors';

/** Output kept per run for late viewers; the tail wins (errors come last). */
const MAX_KEPT_OUTPUT = 256 * 1024;

export type ActivityEvent =
  { type: 'state'; data: ActionState } | { type: 'output'; data: string } | { type: 'end'; data: ActionEnd };
type Listener = (event: ActivityEvent) => void;

interface Run {
  action: string;
  service: string | null;
  output: string;
  /** Saves hold the lock but are not shown as a running compose action. */
  quiet: boolean;
  /** ISO times, so a late viewer can tell how old the output is. */
  startedAt: string;
  endedAt?: string;
  ok?: boolean;
}

export interface RunHandle {
  append: (chunk: string) => void;
  output: () => string;
  end: (ok: boolean, detail: string | null) => void;
}

/**
 * One operation per project at a time, and the live output of the running compose action for
 * anyone watching (the last finished run stays for replay until the next starts).
 */
export class ProjectActivity {
  private readonly runs = new Map<string, Run>();
  private readonly finished = new Map<string, Run>();
  private readonly listeners = new Map<string, Set<Listener>>();
  private readonly idleWaiters = new Set<() => void>();

  /** Takes the project's lock or fails with a 409 naming what runs. */
  begin(project: string, action: string, service: string | null = null, opts: { quiet?: boolean } = {}): RunHandle {
    const busy = this.runs.get(project);
    if (busy) {
      const what = busy.quiet
        ? `a ${busy.action}`
        : `docker-compose ${busy.action}${busy.service ? ` ${busy.service}` : ''}`;
      throw new ConflictError(`Project ${project} is busy: ${what} is running. Try again when it has finished.`);
    }
    const run: Run = { action, service, output: '', quiet: opts.quiet ?? false, startedAt: new Date().toISOString() };
    this.runs.set(project, run);
    if (!run.quiet)
      this.emit(project, {
        type: 'state',
        data: { running: true, action, service, output: '', startedAt: run.startedAt },
      });
    let ended = false;
    return {
      append: (chunk) => {
        run.output = (run.output + chunk).slice(-MAX_KEPT_OUTPUT);
        if (!run.quiet) this.emit(project, { type: 'output', data: chunk });
      },
      output: () => run.output,
      end: (ok, detail) => {
        if (ended) return;
        ended = true;
        this.runs.delete(project);
        if (this.runs.size === 0) for (const wake of this.idleWaiters) wake();
        if (run.quiet) return;
        run.endedAt = new Date().toISOString();
        run.ok = ok;
        this.finished.set(project, run);
        // The end event keeps the spec's shape; the time it ended is in the replayed state.
        this.emit(project, { type: 'end', data: { action, service, ok, detail } });
      },
    };
  }

  /** What a new viewer sees first: the running action's output so far, or the last one's. */
  snapshot(project: string): ActionState {
    const running = this.runs.get(project);
    if (running && !running.quiet)
      return {
        running: true,
        action: running.action,
        service: running.service,
        output: running.output,
        startedAt: running.startedAt,
      };
    const last = this.finished.get(project);
    if (!last) return { running: false, action: null, service: null, output: '' };
    return {
      running: false,
      action: last.action,
      service: last.service,
      output: last.output,
      startedAt: last.startedAt,
      endedAt: last.endedAt,
      ok: last.ok,
    };
  }

  subscribe(project: string, listener: Listener): () => void {
    let set = this.listeners.get(project);
    if (!set) this.listeners.set(project, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.listeners.delete(project);
    };
  }

  /** Resolves once no project holds its lock (true), or after `timeoutMs` (false). */
  idle(timeoutMs: number): Promise<boolean> {
    if (this.runs.size === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const finish = (idle: boolean) => {
        clearTimeout(timer);
        this.idleWaiters.delete(wake);
        resolve(idle);
      };
      const wake = () => finish(true);
      const timer = setTimeout(() => finish(false), timeoutMs);
      this.idleWaiters.add(wake);
    });
  }

  /** A deleted project keeps no replay. */
  forget(project: string): void {
    this.finished.delete(project);
  }

  private emit(project: string, event: ActivityEvent): void {
    for (const l of this.listeners.get(project) ?? []) l(event);
  }
}
