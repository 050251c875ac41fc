import type { FastifyBaseLogger } from 'fastify';
import type { ContainerDetail, ContainerSpec, Engine } from '../../docker/engine';
import type { RecreateSpec } from '../apps/containers';
import { bareName } from '../../docker/names';
import { swapContainer } from '../apps/swap';
import { NotFoundError } from '../../errors';

/** Label on the updater container: the ID of the Berth container it replaces. */
export const UPDATER_LABEL = 'berth.self-update.target';

export const NOT_IN_CONTAINER = 'Berth is not running in a container';

export type SelfLookup = { container: ContainerDetail; reason: null } | { container: null; reason: string };

async function inspectOrNull(engine: Engine, ref: string): Promise<ContainerDetail | null> {
  try {
    return await engine.inspectContainer(ref);
  } catch (err) {
    if (err instanceof NotFoundError) return null;
    throw err;
  }
}

/**
 * Berth's own container, without reading /proc (its layout differs between cgroup v1 and v2):
 * BERTH_CONTAINER_NAME when set, else the host name, which the engine sets to the container's
 * short ID (or to the name the user chose). A container only counts when its configured host
 * name is ours too, so a machine whose host name happens to match some container's name is not
 * mistaken for a container.
 */
export async function findSelfContainer(
  engine: Engine,
  opts: { containerName?: string; hostname?: string },
): Promise<SelfLookup> {
  if (opts.containerName) {
    const info = await inspectOrNull(engine, opts.containerName);
    return info
      ? { container: info, reason: null }
      : { container: null, reason: `BERTH_CONTAINER_NAME names no container on this engine: ${opts.containerName}` };
  }
  const hostname = opts.hostname;
  const hint = hostname
    ? `${NOT_IN_CONTAINER} (no container on this engine has its host name ${hostname}; if it does run in one, set BERTH_CONTAINER_NAME).`
    : `${NOT_IN_CONTAINER}.`;
  if (!hostname || !/^[a-zA-Z0-9][a-zA-Z0-9_.-]*$/.test(hostname)) return { container: null, reason: hint };
  const info = await inspectOrNull(engine, hostname);
  if (!info || info.Config.Hostname !== hostname) return { container: null, reason: hint };
  return { container: info, reason: null };
}

/** The updater already working on `targetId`, if any (created or running). */
export async function runningUpdater(engine: Engine, targetId: string): Promise<string | null> {
  const list = await engine.listContainers({ all: true, filters: { label: [`${UPDATER_LABEL}=${targetId}`] } });
  const busy = list.find((c) => c.State === 'running' || c.State === 'created');
  return busy ? bareName(busy.Names[0] ?? busy.Id) : null;
}

/**
 * The create request for the updater: a copy of Berth's own container (same image, user,
 * groups, mounts, environment and networks, so it reaches the engine exactly as Berth does) that
 * runs `command` instead of the server, publishes nothing, has no health check, no restart
 * policy, no fixed addresses or aliases, and removes itself when done.
 */
export function updaterSpec(self: ContainerDetail, base: RecreateSpec, command: string[]): RecreateSpec {
  const labels = Object.fromEntries(
    Object.entries(base.create.Labels ?? {}).filter(([k]) => !k.startsWith('com.docker.compose.')),
  );
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
    HostConfig: {
      ...base.create.HostConfig,
      PortBindings: {},
      PublishAllPorts: false,
      RestartPolicy: { Name: 'no' },
      AutoRemove: true,
    },
    ...(base.create.NetworkingConfig
      ? {
          NetworkingConfig: {
            EndpointsConfig: Object.fromEntries(Object.entries(endpoints).map(([n, e]) => [n, anonymous(e)])),
          },
        }
      : {}),
  };
  for (const key of ['Hostname', 'MacAddress', 'OpenStdin', 'StdinOnce', 'Tty', 'AttachStdin'] as const)
    delete (create as Record<string, unknown>)[key];
  return { create, extraNetworks: base.extraNetworks.map((n) => ({ name: n.name, endpoint: anonymous(n.endpoint) })) };
}

/** Creates and starts the updater under `name`; if it cannot start, it is removed again. */
export async function startUpdater(engine: Engine, name: string, spec: RecreateSpec): Promise<string> {
  const id = await engine.createContainer(name, spec.create);
  try {
    for (const n of spec.extraNetworks) await engine.connectNetwork(n.name, id, n.endpoint);
    await engine.startContainer(id);
  } catch (err) {
    await engine.removeContainer(id, { force: true, volumes: false }).catch((e: unknown) => {
      if (!(e instanceof NotFoundError)) throw e;
    });
    throw err;
  }
  return id;
}

export type HealthVerdict = { state: 'wait' } | { state: 'healthy' } | { state: 'failed'; reason: string };

export interface HealthInput {
  State: {
    Status: string;
    Running: boolean;
    Restarting: boolean;
    ExitCode: number;
    Health?: { Status: string; Log?: { ExitCode: number; Output: string }[] };
  };
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
  if (s.Restarting || c.RestartCount > 0)
    return { state: 'failed', reason: `it crashed and was restarted (exit code ${s.ExitCode})` };
  if (!s.Running) return { state: 'failed', reason: `it stopped (${s.Status}, exit code ${s.ExitCode})` };
  const health = s.Health?.Status;
  if (health === 'healthy') return { state: 'healthy' };
  if (health === 'unhealthy') {
    const last = s.Health?.Log?.at(-1)?.Output.trim().slice(0, 300);
    return { state: 'failed', reason: `its health check failed${last ? `: ${last}` : ''}` };
  }
  if (health === 'starting') {
    return elapsedMs >= opts.timeoutMs
      ? { state: 'failed', reason: `it was not healthy within ${Math.round(opts.timeoutMs / 1000)} s` }
      : { state: 'wait' };
  }
  return elapsedMs >= opts.stableMs ? { state: 'healthy' } : { state: 'wait' };
}

export interface SelfSwapOptions extends HealthOptions {
  pollMs: number;
  log: FastifyBaseLogger;
}
export type { SelfSwapOptions as SwapOptions };

export interface SwapOutcome {
  result: 'updated' | 'rolled_back' | 'failed';
  detail: string;
}

async function waitUntilUp(engine: Engine, id: string, opts: SelfSwapOptions): Promise<HealthVerdict> {
  const started = Date.now();
  for (;;) {
    const info = (await engine.inspectContainer(id)) as unknown as HealthInput;
    const verdict = healthVerdict(info, Date.now() - started, opts);
    if (verdict.state !== 'wait') return verdict;
    await new Promise((r) => setTimeout(r, opts.pollMs));
  }
}

/**
 * Swaps container `oldId` for a new one made from `spec`, gated on health (see swapContainer).
 * Meant to run outside both containers (in the updater), because the old one is stopped midway.
 */
export async function swapSelf(
  engine: Engine,
  oldId: string,
  spec: RecreateSpec,
  opts: SelfSwapOptions,
): Promise<SwapOutcome> {
  const out = await swapContainer(
    engine,
    oldId,
    { spec: spec.create, extraNetworks: spec.extraNetworks },
    {
      tempTag: 'next',
      log: opts.log,
      gate: async (id) => {
        const verdict = await waitUntilUp(engine, id, opts);
        return verdict.state === 'healthy'
          ? { ok: true }
          : { ok: false, reason: verdict.state === 'failed' ? verdict.reason : 'unknown state' };
      },
    },
  );
  if (out.result === 'swapped')
    return { result: 'updated', detail: `${out.name} now runs ${out.image ?? 'the new image'}.` };
  if (out.result === 'not_created') {
    const extra = out.problems.length
      ? ` Removing the half-made container failed too (${out.problems.join('; ')}).`
      : '';
    return {
      result: 'failed',
      detail: `The new container could not be created: ${out.error.message}. ${out.name} was left as it was.${extra}`,
    };
  }
  if (out.problems.length) {
    return {
      result: 'failed',
      detail: `The new container did not come up (${out.reason}), and putting the previous one back failed (${out.problems.join('; ')}); it is named ${out.heldAs}.`,
    };
  }
  return {
    result: 'rolled_back',
    detail: `The new container did not come up (${out.reason}); the previous one runs again as ${out.name}.`,
  };
}
