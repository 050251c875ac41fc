import type { EngineEventRecord, NotifyEvent } from '@berth/contract';
import type { EngineStatus } from '../../docker/engine-status';
import type { Notification } from './senders';

export interface Candidate extends Notification {
  event: NotifyEvent;
  /** restart_loop: the container's start times (ms); each rule counts those inside its own window. */
  starts?: number[];
}

/** A stop, kill or restart asked for ends in `die` too; that is not a crash. */
const ASKED_MS = 60_000;
const STARTS_KEPT_MS = 24 * 3600 * 1000;
const COMPOSE_PROJECT = 'com.docker.compose.project';

/**
 * Turns one environment's container events into notification candidates: every stop (whoever
 * made it), died with a non-zero exit code (unless a stop or kill was asked for just before, as
 * Berth and the CLI do), OOM-killed, every health change and turned unhealthy, every start, and
 * every start after the first (for restart loops).
 */
export function containerWatcher(environment: string, emit: (c: Candidate) => void): (e: EngineEventRecord) => void {
  const asked = new Map<string, number>();
  const starts = new Map<string, number[]>();
  return (e) => {
    if (e.type !== 'container') return;
    const now = Date.parse(e.time);
    const base = {
      environment,
      app: e.name,
      project: e.attributes[COMPOSE_PROJECT],
      details: { app: e.name, environment } as Record<string, string | number>,
    };
    if (e.action === 'kill' || e.action === 'stop' || e.action === 'restart') {
      asked.set(e.actor_id, now);
      return;
    }
    if (e.action === 'destroy') {
      asked.delete(e.actor_id);
      starts.delete(e.actor_id);
      return;
    }
    if (e.action === 'die') {
      const code = e.attributes.exitCode ?? '?';
      const wasAsked = now - (asked.get(e.actor_id) ?? -Infinity) < ASKED_MS;
      emit({
        ...base,
        event: 'container_stopped',
        title: `${e.name} stopped (exit code ${code})`,
        message: `The container ${e.name} on ${environment} stopped with exit code ${code}${wasAsked ? ' after a stop or kill was asked for' : ''}.`,
        details: { ...base.details, exit_code: code, asked: wasAsked ? 'yes' : 'no' },
      });
      if (code === '0' || wasAsked) return;
      emit({
        ...base,
        event: 'container_died',
        title: `${e.name} exited with code ${code}`,
        message: `The container ${e.name} on ${environment} stopped with exit code ${code}.`,
        details: { ...base.details, exit_code: code },
      });
    } else if (e.action === 'oom') {
      emit({
        ...base,
        event: 'oom',
        title: `${e.name} ran out of memory`,
        message: `The container ${e.name} on ${environment} was killed for using more memory than it may (OOM).`,
      });
    } else if (e.action.startsWith('health_status: ')) {
      const health = e.action.slice('health_status: '.length);
      emit({
        ...base,
        event: 'health_changed',
        title: `${e.name} is ${health}`,
        message: `The health of ${e.name} on ${environment} changed to ${health}.`,
        details: { ...base.details, health },
      });
      if (health !== 'unhealthy') return;
      emit({
        ...base,
        event: 'unhealthy',
        title: `${e.name} is unhealthy`,
        message: `The health check of ${e.name} on ${environment} is failing.`,
      });
    } else if (e.action === 'start') {
      emit({
        ...base,
        event: 'container_started',
        title: `${e.name} started`,
        message: `The container ${e.name} on ${environment} started.`,
      });
      const list = (starts.get(e.actor_id) ?? []).filter((t) => now - t < STARTS_KEPT_MS).slice(-999);
      list.push(now);
      starts.set(e.actor_id, list);
      if (list.length > 1) {
        emit({
          ...base,
          event: 'restart_loop',
          title: `${e.name} keeps restarting`,
          message: `The container ${e.name} on ${environment} started ${list.length} times recently.`,
          starts: list,
        });
      }
    }
  };
}

/** Environment unreachable (after it was reachable) and recovered (after it was reported unreachable). */
export function engineWatcher(environment: string, engine: EngineStatus, emit: (c: Candidate) => void): () => void {
  let seenUp = engine.current.reachable;
  let down = false;
  return engine.onChange((s) => {
    if (s.reachable) {
      seenUp = true;
      if (!down) return;
      down = false;
      emit({
        event: 'environment_down',
        environment,
        title: `Environment ${environment} is reachable again`,
        message: `Berth reaches the Docker engine of ${environment} again.`,
        details: { environment, state: 'recovered' },
      });
    } else if (seenUp && !down) {
      down = true;
      emit({
        event: 'environment_down',
        environment,
        title: `Environment ${environment} is unreachable`,
        message: `Berth cannot reach the Docker engine of ${environment}: ${s.error ?? 'no answer'}.`,
        details: { environment, state: 'unreachable' },
      });
    }
  });
}
