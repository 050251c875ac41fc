import { randomBytes } from 'node:crypto';
import type Docker from 'dockerode';
import type { FastifyBaseLogger } from 'fastify';
import type { DockerClient } from './client';
import { engineCall, translateEngineError } from './client';
import type { ContainerDetail, RecreateSpec } from './containers';
import { translateStartError, type ContainerSpec } from './replace';

/** Label on the updater container: the ID of the Berth container it replaces. */
export const UPDATER_LABEL = 'berth.self-update.target';

export const NOT_IN_CONTAINER = 'Berth is not running in a container';

export type SelfLookup = { container: ContainerDetail; reason: null } | { container: null; reason: string };

const isStatus = (err: unknown, code: number) => (err as { statusCode?: number }).statusCode === code;
const nameOf = (info: ContainerDetail) => info.Name.replace(/^\//, '');

async function inspectOrNull(docker: DockerClient, ref: string): Promise<ContainerDetail | null> {
  try {
    return await docker.getContainer(ref).inspect();
  } catch (err) {
    if (isStatus(err, 404)) return null;
    throw translateEngineError(err);
  }
}

/**
 * Berth's own container, without reading /proc (its layout differs between cgroup v1 and v2):
 * BERTH_CONTAINER_NAME when set, else the host name, which the engine sets to the container's
 * short ID (or to the name the user chose). A container only counts when its configured host
 * name is ours too, so a machine whose host name happens to match some container's name is not
 * mistaken for a container.
 */
export async function findSelfContainer(docker: DockerClient, opts: { containerName?: string; hostname?: string }): Promise<SelfLookup> {
  if (opts.containerName) {
    const info = await inspectOrNull(docker, opts.containerName);
    return info ? { container: info, reason: null } : { container: null, reason: `BERTH_CONTAINER_NAME names no container on this engine: ${opts.containerName}` };
  }
  const hostname = opts.hostname;
  const hint = hostname
    ? `${NOT_IN_CONTAINER} (no container on this engine has its host name ${hostname}; if it does run in one, set BERTH_CONTAINER_NAME).`
    : `${NOT_IN_CONTAINER}.`;
  if (!hostname || !/^[a-zA-Z0-9][a-zA-Z0-9_.-]*$/.test(hostname)) return { container: null, reason: hint };
  const info = await inspectOrNull(docker, hostname);
  if (!info || info.Config.Hostname !== hostname) return { container: null, reason: hint };
  return { container: info, reason: null };
}

/** The updater already working on `targetId`, if any (created or running). */
export async function runningUpdater(docker: DockerClient, targetId: string): Promise<string | null> {
  const list = await engineCall(() => docker.listContainers({ all: true, filters: { label: [`${UPDATER_LABEL}=${targetId}`] } }));
  const busy = list.find((c) => c.State === 'running' || c.State === 'created');
  return busy ? (busy.Names[0] ?? busy.Id).replace(/^\//, '') : null;
}

/**
 * The create request for the updater: a copy of Berth's own container (same image, user,
 * groups, mounts, environment and networks, so it reaches the engine exactly as Berth does) that
 * runs `command` instead of the server, publishes nothing, has no health check, no restart
 * policy, no fixed addresses or aliases, and removes itself when done.
 */
export function updaterSpec(self: ContainerDetail, base: RecreateSpec, command: string[]): RecreateSpec {
  const labels = Object.fromEntries(Object.entries(base.create.Labels ?? {}).filter(([k]) => !k.startsWith('com.docker.compose.')));
  const anonymous = <T extends object>(endpoint: T): T => ({ ...endpoint, IPAMConfig: undefined, Aliases: [] });
  const endpoints = base.create.NetworkingConfig?.EndpointsConfig ?? {};
  const create: ContainerSpec = {
    ...base.create,
    Image: self.Image,
    Entrypoint: command.slice(0, 1),
    Cmd: command.slice(1),
    Healthcheck: { Test: ['NONE'] },
    Labels: { ...labels, [UPDATER_LABEL]: self.Id },
    ExposedPorts: {},
    HostConfig: { ...base.create.HostConfig, PortBindings: {}, PublishAllPorts: false, RestartPolicy: { Name: 'no' }, AutoRemove: true },
    ...(base.create.NetworkingConfig
      ? { NetworkingConfig: { EndpointsConfig: Object.fromEntries(Object.entries(endpoints).map(([n, e]) => [n, anonymous(e)])) } }
      : {}),
  };
  for (const key of ['Hostname', 'MacAddress', 'OpenStdin', 'StdinOnce', 'Tty', 'AttachStdin'] as const) delete (create as Record<string, unknown>)[key];
  return { create, extraNetworks: base.extraNetworks.map((n) => ({ name: n.name, endpoint: anonymous(n.endpoint) })) };
}

/** Creates and starts the updater under `name`; if it cannot start, it is removed again. */
export async function startUpdater(docker: DockerClient, name: string, spec: RecreateSpec): Promise<string> {
  const created = await engineCall(() => docker.createContainer({ ...spec.create, name }));
  try {
    for (const n of spec.extraNetworks) await docker.getNetwork(n.name).connect({ Container: created.id, EndpointConfig: n.endpoint });
    await created.start();
  } catch (err) {
    await created.remove({ force: true }).catch((e: unknown) => {
      if (!isStatus(e, 404)) throw translateEngineError(e);
    });
    throw translateStartError(err);
  }
  return created.id;
}

export type HealthVerdict = { state: 'wait' } | { state: 'healthy' } | { state: 'failed'; reason: string };

export interface HealthInput {
  State: { Status: string; Running: boolean; Restarting: boolean; ExitCode: number; Health?: { Status: string; Log?: { ExitCode: number; Output: string }[] } };
  RestartCount: number;
}

export interface HealthOptions {
  /** Without a health check, running this long without a restart counts as healthy. */
  stableMs: number;
  /** With one, 'healthy' must come within this long. */
  timeoutMs: number;
}

/** Whether a just-started container has come up: the engine's health status when it has a check, else steady running. */
export function healthVerdict(c: HealthInput, elapsedMs: number, opts: HealthOptions): HealthVerdict {
  const s = c.State;
  if (s.Restarting || c.RestartCount > 0) return { state: 'failed', reason: `it crashed and was restarted (exit code ${s.ExitCode})` };
  if (!s.Running) return { state: 'failed', reason: `it stopped (${s.Status}, exit code ${s.ExitCode})` };
  const health = s.Health?.Status;
  if (health === 'healthy') return { state: 'healthy' };
  if (health === 'unhealthy') {
    const last = s.Health?.Log?.at(-1)?.Output.trim().slice(0, 300);
    return { state: 'failed', reason: `its health check failed${last ? `: ${last}` : ''}` };
  }
  if (health === 'starting') {
    return elapsedMs >= opts.timeoutMs ? { state: 'failed', reason: `it was not healthy within ${Math.round(opts.timeoutMs / 1000)} s` } : { state: 'wait' };
  }
  return elapsedMs >= opts.stableMs ? { state: 'healthy' } : { state: 'wait' };
}

export interface SwapOptions extends HealthOptions {
  pollMs: number;
  log: FastifyBaseLogger;
}

export interface SwapOutcome {
  result: 'updated' | 'rolled_back' | 'failed';
  detail: string;
}

async function waitUntilUp(docker: DockerClient, id: string, opts: SwapOptions): Promise<HealthVerdict> {
  const started = Date.now();
  for (;;) {
    const info = (await docker.getContainer(id).inspect()) as unknown as HealthInput;
    const verdict = healthVerdict(info, Date.now() - started, opts);
    if (verdict.state !== 'wait') return verdict;
    await new Promise((r) => setTimeout(r, opts.pollMs));
  }
}

/**
 * Swaps container `oldId` for a new one made from `spec`, gated on health. Meant to run outside
 * both containers (in the updater), because the old one is stopped midway. The new container is
 * created under a temporary name first (a failure there changes nothing); then the old one is
 * stopped (freeing its ports) and renamed aside, the new one takes the name, starts, and must
 * come up healthy. Only then is the old one removed (its volumes stay). Otherwise the new one is
 * removed and the old one gets its name back and is started again.
 */
export async function swapContainer(docker: DockerClient, oldId: string, spec: RecreateSpec, opts: SwapOptions): Promise<SwapOutcome> {
  const oldInfo = await engineCall(() => docker.getContainer(oldId).inspect());
  const old = docker.getContainer(oldInfo.Id);
  const name = nameOf(oldInfo);
  const suffix = randomBytes(4).toString('hex');
  const backup = `${name}-berth-old-${suffix}`;
  let created: Docker.Container | null = null;
  try {
    created = await docker.createContainer({ ...spec.create, name: `${name}-berth-next-${suffix}` });
    for (const n of spec.extraNetworks) await docker.getNetwork(n.name).connect({ Container: created.id, EndpointConfig: n.endpoint });
  } catch (err) {
    const problems = created ? await undo(created, old, { name, renamedAside: false, wasRunning: false }) : [];
    const extra = problems.length ? ` Removing the half-made container failed too (${problems.join('; ')}).` : '';
    return { result: 'failed', detail: `The new container could not be created: ${translateEngineError(err).message}. ${name} was left as it was.${extra}` };
  }
  const wasRunning = oldInfo.State.Running || oldInfo.State.Restarting;
  let renamedAside = false;
  let reason: string;
  try {
    if (wasRunning) {
      await old.stop({ t: (oldInfo.Config as { StopTimeout?: number }).StopTimeout ?? 10 }).catch((err: unknown) => {
        if (!isStatus(err, 304)) throw err;
      });
    }
    await old.rename({ name: backup });
    renamedAside = true;
    await created.rename({ name });
    await created.start();
    const verdict = await waitUntilUp(docker, created.id, opts);
    if (verdict.state === 'healthy') {
      await old.remove({ force: true, v: false }).catch((err: unknown) => {
        // The new container runs; the old one only stays behind under its backup name.
        opts.log.warn({ container: backup, err: translateEngineError(err).message }, 'could not remove the replaced container');
      });
      return { result: 'updated', detail: `${name} now runs ${spec.create.Image ?? 'the new image'}.` };
    }
    reason = verdict.state === 'failed' ? verdict.reason : 'unknown state';
  } catch (err) {
    reason = translateStartError(err).message;
  }
  opts.log.warn({ container: name, reason }, 'the new container did not come up; putting the old one back');
  const problems = await undo(created, old, { name, renamedAside, wasRunning });
  if (problems.length) {
    return {
      result: 'failed',
      detail: `The new container did not come up (${reason}), and putting the previous one back failed (${problems.join('; ')}); it is named ${renamedAside ? backup : name}.`,
    };
  }
  return { result: 'rolled_back', detail: `The new container did not come up (${reason}); the previous one runs again as ${name}.` };
}

/** Removes the new container, gives the old one its name back and restarts it when it was running. */
async function undo(created: Docker.Container, old: Docker.Container, s: { name: string; renamedAside: boolean; wasRunning: boolean }): Promise<string[]> {
  const problems: string[] = [];
  const step = async (what: string, fn: () => Promise<unknown>) => {
    try {
      await fn();
    } catch (err) {
      if (!isStatus(err, 404) && !isStatus(err, 304)) problems.push(`${what}: ${translateEngineError(err).message}`);
    }
  };
  await step('removing the new container', () => created.remove({ force: true, v: true }));
  if (s.renamedAside) await step('renaming the old container back', () => old.rename({ name: s.name }));
  if (s.wasRunning) await step('starting the old container', () => old.start());
  return problems;
}
