import {
  PROJECT_ACTIONS,
  type ComposeService,
  type HealthStatus,
  type ProjectAction,
  type ProjectDetail,
  type ServiceAction,
} from '@berth/contract';

/** Pure helpers that read a project for display; no React, no fetch. */

export const ACTION_LABELS: Record<ProjectAction, string> = {
  up: 'Up',
  down: 'Down',
  start: 'Start',
  stop: 'Stop',
  restart: 'Restart',
  pull: 'Pull',
  create: 'Create',
  kill: 'Kill',
  rm: 'Remove',
  delete: 'Delete',
};

/** The nine controls of a whole project (delete has its own button and confirmation). */
export const CONTROL_ACTIONS = PROJECT_ACTIONS.filter((a): a is Exclude<ProjectAction, 'delete'> => a !== 'delete');

const PAST: Record<ProjectAction, string> = {
  up: 'brought up',
  down: 'brought down',
  start: 'started',
  stop: 'stopped',
  restart: 'restarted',
  pull: 'pulled',
  create: 'created',
  kill: 'killed',
  rm: 'removed',
  delete: 'deleted',
};

/** Spec: '{name} has been {action}ed.', in words a person would write. */
export const successText = (name: string, action: ProjectAction) => `${name} has been ${PAST[action]}.`;

/** Spec: the subtitle while an action runs. */
export const runningText = (action: string) => `Running docker-compose ${action} ...`;

/** What the new-project route uses for its name (spec: '_' or missing means new). */
export const NEW_PROJECT = '_';

/** Live state of a service's containers: 'running', 'exited', 'running, exited' (scaled), or 'not created'. */
export function serviceStatus(detail: Pick<ProjectDetail, 'containers'> | undefined, service: string): string {
  const states = (detail?.containers ?? []).filter((c) => c.service === service).map((c) => c.state);
  return states.length ? [...new Set(states)].join(', ') : 'not created';
}

/** Worst first: a service is as healthy as its least healthy container. */
const HEALTH_ORDER: readonly HealthStatus[] = ['unhealthy', 'starting', 'healthy', 'none'];

/** A service's health from its containers (`none` when none has a healthcheck or none exists). */
export function serviceHealth(detail: Pick<ProjectDetail, 'containers'> | undefined, service: string): HealthStatus {
  const found = new Set((detail?.containers ?? []).filter((c) => c.service === service).map((c) => c.health));
  return HEALTH_ORDER.find((h) => found.has(h)) ?? 'none';
}

const LIVE = new Set(['running', 'restarting', 'paused']);
const STOPPED = new Set(['exited', 'created', 'dead']);

/**
 * Whether a one-service action means anything in the service's state (as serviceStatus words it):
 * Start needs a stopped container, Stop and Kill a live one, Restart and Remove any container.
 */
export function serviceActionApplies(action: ServiceAction, status: string): boolean {
  const states = status === 'not created' ? [] : status.split(', ');
  switch (action) {
    case 'start':
      return states.some((s) => STOPPED.has(s));
    case 'stop':
    case 'kill':
      return states.some((s) => LIVE.has(s));
    case 'restart':
    case 'rm':
      return states.length > 0;
    default:
      return true;
  }
}

export interface VolumeRow {
  host: string;
  container: string;
}

/** Volumes as host/container rows: 'host:container[:mode]' strings, or long-form {source, target}. */
export function volumeRows(volumes: ComposeService['volumes']): VolumeRow[] {
  return (volumes ?? []).map((v) => {
    if (typeof v === 'string') {
      const [host = '', container = ''] = v.split(':');
      return container ? { host, container } : { host: '', container: host };
    }
    const o = v as { source?: unknown; target?: unknown };
    return {
      host: typeof o.source === 'string' ? o.source : '',
      container: typeof o.target === 'string' ? o.target : '',
    };
  });
}

/** A list-or-map field (environment, labels) as 'K=V' lines. */
export function keyValueLines(
  value: string[] | Record<string, string | number | boolean | null> | undefined,
): string[] {
  if (!value) return [];
  if (Array.isArray(value)) return value;
  return Object.entries(value).map(([k, v]) => (v === null ? k : `${k}=${String(v)}`));
}

/** A list-or-map field (networks, depends_on) as names. */
export function names(value: string[] | Record<string, unknown> | undefined): string[] {
  if (!value) return [];
  return Array.isArray(value) ? value : Object.keys(value);
}

/** A port entry as text: '8080:80', 80, or the long form {published, target, protocol}. */
export function portText(port: string | number | Record<string, unknown>): string {
  if (typeof port !== 'object') return String(port);
  const p = port as { published?: unknown; target?: unknown; protocol?: unknown };
  const base = p.published !== undefined ? `${String(p.published)}:${String(p.target)}` : String(p.target);
  return typeof p.protocol === 'string' ? `${base}/${p.protocol}` : base;
}

/** A command as written: a list is shown as its words joined, a string as it is. */
export function commandText(command: ComposeService['command']): string {
  if (command === undefined) return '';
  return Array.isArray(command)
    ? command.map((w) => (/\s/.test(String(w)) ? JSON.stringify(w) : String(w))).join(' ')
    : command;
}
