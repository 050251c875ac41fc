import { ErrorCode, parseImageReference, type App, type AppAction, type PortMap } from '@berth/contract';
import { ApiError } from '../../lib/api-client';

/** Pure helpers that read an app (a container) for display; no React, no fetch. */

export const isRunning = (app: Pick<App, 'State'> | undefined): boolean => app?.State.Status === 'running';

export const COMPOSE_PROJECT_LABEL = 'com.docker.compose.project';

/** The compose project the app belongs to, or null. */
export function projectOf(app: Pick<App, 'Config'>): string | null {
  return app.Config.Labels[COMPOSE_PROJECT_LABEL] || null;
}

/** Display label of a published port: `local.berth.port.{hostPort}`, or the original product's `local.yacht.port.{hostPort}`. */
export function portLabel(labels: Record<string, string>, hostPort: string): string | null {
  return labels[`local.berth.port.${hostPort}`] ?? labels[`local.yacht.port.${hostPort}`] ?? null;
}

export interface PortChip {
  hostIp: string;
  hostPort: string;
  containerPort: string;
  proto: string;
  label: string | null;
  /** Where the chip links: the page's host for wildcard bindings, else the bound address. */
  href: string;
}

const WILDCARD = new Set(['', '0.0.0.0', '::']);

function hostForUrl(ip: string): string {
  return ip.includes(':') && !ip.startsWith('[') ? `[${ip}]` : ip;
}

/**
 * One chip per published host port. The engine lists a port bound on all interfaces twice
 * (0.0.0.0 and ::); those collapse into one chip.
 */
export function portChips(ports: PortMap, labels: Record<string, string>, pageHost: string): PortChip[] {
  const chips = new Map<string, PortChip>();
  for (const [key, bindings] of Object.entries(ports)) {
    const [containerPort = key, proto = 'tcp'] = key.split('/');
    for (const b of bindings ?? []) {
      if (!b.HostPort) continue;
      const wildcard = WILDCARD.has(b.HostIp);
      const id = `${wildcard ? '*' : b.HostIp}|${b.HostPort}|${containerPort}|${proto}`;
      if (chips.has(id)) continue;
      const host = wildcard ? hostForUrl(pageHost) : hostForUrl(b.HostIp);
      chips.set(id, {
        hostIp: b.HostIp,
        hostPort: b.HostPort,
        containerPort,
        proto,
        label: portLabel(labels, b.HostPort),
        href: `http://${host}:${b.HostPort}`,
      });
    }
  }
  return [...chips.values()].sort((a, b) => Number(a.hostPort) - Number(b.hostPort) || a.proto.localeCompare(b.proto));
}

/**
 * Whether the app runs Berth itself, whose Update entry is hidden (updating Berth is done from
 * Settings). Decided by the image alone: the OCI title label `berth`, or a repository named
 * `berth` (`berth`, `ghcr.io/someone/berth`). Kept this simple on purpose.
 */
export function isBerthImage(app: Pick<App, 'Config'>): boolean {
  if (app.Config.Labels['org.opencontainers.image.title']?.toLowerCase() === 'berth') return true;
  const ref = parseImageReference(app.Config.Image);
  if ('error' in ref) return false;
  return ref.path === 'berth' || ref.path.endsWith('/berth');
}

/** `NAME=value` strings as rows; a value may itself contain '='. */
export function envRows(env: readonly string[] | null | undefined): { name: string; value: string }[] {
  return (env ?? []).map((entry) => {
    const at = entry.indexOf('=');
    return at === -1 ? { name: entry, value: '' } : { name: entry.slice(0, at), value: entry.slice(at + 1) };
  });
}

export function labelRows(labels: Record<string, string>): { label: string; value: string }[] {
  return Object.entries(labels)
    .map(([label, value]) => ({ label, value }))
    .sort((a, b) => a.label.localeCompare(b.label));
}

export interface NetworkRow {
  name: string;
  networkId: string | null;
  ip: string | null;
  gateway: string | null;
}

/** Attached networks; address and gateway only mean something while the app runs. */
export function networkRows(app: App): NetworkRow[] {
  const running = isRunning(app);
  return Object.entries(app.NetworkSettings?.Networks ?? {}).map(([name, n]) => ({
    name,
    networkId: n.NetworkID || null,
    ip: running ? n.IPAddress || null : null,
    gateway: running ? n.Gateway || null : null,
  }));
}

/** HostConfig is passed through from the engine; these read the parts the Advanced tabs show. */
function hostConfig(app: App): Record<string, unknown> {
  return (app.HostConfig ?? {}) as Record<string, unknown>;
}

export function devicesOf(app: App): { host: string; container: string; permissions: string }[] {
  const devices = hostConfig(app).Devices;
  if (!Array.isArray(devices)) return [];
  return devices.map((d: Record<string, unknown>) => ({
    host: String(d.PathOnHost ?? ''),
    container: String(d.PathInContainer ?? ''),
    permissions: String(d.CgroupPermissions ?? ''),
  }));
}

export function sysctlsOf(app: App): { name: string; value: string }[] {
  const sysctls = hostConfig(app).Sysctls;
  if (!sysctls || typeof sysctls !== 'object') return [];
  return Object.entries(sysctls as Record<string, unknown>).map(([name, value]) => ({ name, value: String(value) }));
}

export function capabilitiesOf(app: App): string[] {
  const caps = hostConfig(app).CapAdd;
  return Array.isArray(caps) ? caps.map(String) : [];
}

/** The command the container runs: the engine's `Path` and `Args`, else the Config's Cmd. */
export function commandOf(app: App): string[] {
  const path = (app as Record<string, unknown>).Path;
  if (typeof path === 'string' && path) return [path, ...(app.Args ?? [])];
  if (app.Args && app.Args.length > 0) return app.Args;
  const cmd = (app.Config as Record<string, unknown>).Cmd;
  return Array.isArray(cmd) ? cmd.map(String) : [];
}

/** Loading texts from the spec: 'Updating {name} ...' and '{action} {name} ...'. */
export function busyText(name: string, action: AppAction | 'update'): string {
  return action === 'update' ? `Updating ${name} ...` : `${action} ${name} ...`;
}

const DONE: Record<AppAction | 'update', string> = {
  start: 'started',
  stop: 'stopped',
  restart: 'restarted',
  kill: 'killed',
  remove: 'removed',
  pause: 'paused',
  unpause: 'unpaused',
  update: 'updated',
};

/** Success of an app action, worded like a project action's ('{name} has been {action}ed.'). */
export const actionDoneText = (name: string, action: AppAction | 'update') => `${name} has been ${DONE[action]}.`;

/** Actions that end the live streams of an app (spec: stop and kill close and clear them). */
export const ENDS_STREAMS: readonly AppAction[] = ['stop', 'kill', 'remove', 'pause'];

export interface PortRow {
  containerPort: string;
  proto: string;
  hostIp: string | null;
  hostPort: string | null;
  label: string | null;
  href: string | null;
}

/** Every port of a running app: the published ones (as chips) and those only exposed. */
export function portRows(ports: PortMap, labels: Record<string, string>, pageHost: string): PortRow[] {
  const published: PortRow[] = portChips(ports, labels, pageHost).map((c) => ({ ...c }));
  const exposed: PortRow[] = Object.entries(ports)
    .filter(([, bindings]) => !bindings || bindings.length === 0)
    .map(([key]) => {
      const [containerPort = key, proto = 'tcp'] = key.split('/');
      return { containerPort, proto, hostIp: null, hostPort: null, label: null, href: null };
    });
  return [...published, ...exposed];
}

/** An app's state as the docker CLI says it: its status, with the exit code (and an out-of-memory kill) once exited. */
export function statusText(state: App['State']): string {
  if (state.Status !== 'exited' || state.ExitCode === null || state.ExitCode === undefined) return state.Status;
  return `${state.Status} (${state.ExitCode})${state.OOMKilled ? ' OOM killed' : ''}`;
}

/** What a page says in place of its list when the list could not be read (never "No applications yet"). */
export function failedReadText(error: unknown): string {
  const engineDown =
    error instanceof ApiError &&
    (error.code === ErrorCode.dockerUnavailable || error.code === ErrorCode.environmentUnreachable);
  return engineDown
    ? 'Cannot read the applications while the engine is unreachable.'
    : 'The applications could not be read.';
}

/** A healthcheck's test as a command line: CMD-SHELL's string, CMD's arguments; null for none (NONE or unset). */
export function healthcheckCommand(test: readonly string[] | null | undefined): string | null {
  const [kind, ...rest] = test ?? [];
  if (!kind || kind === 'NONE') return null;
  if (kind === 'CMD-SHELL') return rest.join(' ');
  return (kind === 'CMD' ? rest : [kind, ...rest]).join(' ');
}

/** A healthcheck duration (the engine's nanoseconds; 0 or unset = the engine's default). */
export function healthDuration(ns: number | null | undefined, fallback: string): string {
  return ns ? `${ns / 1e9} s` : `${fallback} (default)`;
}
