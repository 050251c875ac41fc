import type { App, AppAction, HealthStatus, PortMap, Processes } from '@berth/contract';
import type {
  ContainerDetail,
  ContainerHostConfig,
  ContainerListEntry,
  ContainerSpec,
  EndpointSettings,
  Engine,
  EnginePort,
} from '../../docker/engine';
import { bareName, IMAGE_ID, SHORT_ID_LENGTH } from '../../docker/names';
import { ConflictError, NotFoundError } from '../../errors';

export type { ContainerDetail, ContainerListEntry } from '../../docker/engine';

/** The engine's published ports of one list entry as an inspect-style map. */
export function portsFromList(ports: EnginePort[] | null | undefined): PortMap {
  const map: PortMap = {};
  for (const p of ports ?? []) {
    const key = `${p.PrivatePort}/${p.Type}`;
    if (!(key in map)) map[key] = null;
    if (p.PublicPort) (map[key] ??= []).push({ HostIp: p.IP ?? '', HostPort: String(p.PublicPort) });
  }
  return map;
}

/** The exit code in the engine's list status ("Exited (137) 5 minutes ago"); null while it never exited. */
export function exitCodeFromStatus(status: string | undefined): number | null {
  const m = /^Exited \((-?\d+)\)/.exec(status ?? '');
  return m ? Number(m[1]) : null;
}

/**
 * Health in the engine's list status, as `docker ps` shows it: "Up 5 minutes (healthy)",
 * "(unhealthy)", "(health: starting)"; `none` otherwise (no healthcheck, or not running).
 */
export function healthFromStatus(status: string | undefined): HealthStatus {
  const m = /^Up .*\((healthy|unhealthy|health: starting)\)$/.exec(status ?? '');
  if (!m) return 'none';
  return m[1] === 'health: starting' ? 'starting' : (m[1] as HealthStatus);
}

/** Health of an inspected container, the same as its list row says (only a running, unpaused one has one). */
export function healthFromState(state: { Running?: boolean; Paused?: boolean; Health?: { Status?: string } | null }) {
  const status = state.Health?.Status;
  if (!state.Running || state.Paused) return 'none';
  return status === 'starting' || status === 'healthy' || status === 'unhealthy' ? status : 'none';
}

/** A name without extra slashes: legacy links add `/other/alias` names to a container. */
function primaryName(c: ContainerListEntry): string {
  return c.Names?.find((n) => n.lastIndexOf('/') === 0) ?? c.Names?.[0] ?? `/${c.Id.slice(0, 12)}`;
}

/**
 * One list entry in the API's shape. The engine shows the image ID instead of the reference once
 * that reference points to a newer image; `imageRef` puts the reference back when we know it.
 */
export function appFromListEntry(c: ContainerListEntry, isUpdatable: boolean, imageRef?: string): App {
  const Name = primaryName(c);
  return {
    Id: c.Id,
    Name,
    Created: new Date(c.Created * 1000).toISOString(),
    Image: c.ImageID,
    State: { Status: c.State, Running: c.State === 'running', ExitCode: exitCodeFromStatus(c.Status) },
    Config: { Image: imageRef ?? c.Image, Labels: c.Labels ?? {} },
    HostConfig: { NetworkMode: c.HostConfig?.NetworkMode },
    NetworkSettings: {
      Networks: (c.NetworkSettings?.Networks ?? {}) as unknown as Record<string, Record<string, unknown>>,
    },
    Mounts: c.Mounts ?? [],
    name: bareName(Name),
    short_id: c.Id.slice(0, SHORT_ID_LENGTH),
    ports: portsFromList(c.Ports),
    isUpdatable,
    health: healthFromStatus(c.Status),
  };
}

/** True when the list shows an image ID where the container's reference should be. */
export function listShowsImageId(c: ContainerListEntry): boolean {
  return IMAGE_ID.test(c.Image) && c.Image.replace(/^sha256:/, '') === c.ImageID.replace(/^sha256:/, '');
}

export function appFromInspect(i: ContainerDetail, isUpdatable: boolean): App {
  // The engine's object passes through as is (the API shows the inspect shape).
  const engine = i as unknown as Record<string, unknown>;
  return {
    ...engine,
    Id: i.Id,
    Name: i.Name,
    Created: i.Created,
    State: i.State,
    Config: {
      ...i.Config,
      Image: i.Config?.Image ?? i.Image,
      Labels: i.Config?.Labels ?? {},
      Healthcheck: i.Config?.Healthcheck as App['Config']['Healthcheck'],
    },
    name: bareName(i.Name),
    short_id: i.Id.slice(0, SHORT_ID_LENGTH),
    ports: (i.NetworkSettings?.Ports as PortMap | undefined) ?? {},
    isUpdatable,
    health: healthFromState(i.State),
  };
}

export async function listContainers(engine: Engine): Promise<ContainerListEntry[]> {
  return engine.listContainers({ all: true });
}

export async function listRunning(engine: Engine): Promise<{ id: string; name: string }[]> {
  const list = await engine.listContainers({ filters: { status: ['running'] } });
  return list.map((c) => ({ id: c.Id, name: bareName(primaryName(c)) }));
}

/** Every container's name and whether it runs, in one engine call. */
export async function listStates(engine: Engine): Promise<{ name: string; running: boolean }[]> {
  const list = await engine.listContainers({ all: true });
  return list.map((c) => ({ name: bareName(primaryName(c)), running: c.State === 'running' }));
}

export async function inspectContainer(engine: Engine, name: string): Promise<ContainerDetail> {
  return engine.inspectContainer(name);
}

/** Whether a container runs; null when it is gone. */
export async function probeContainer(engine: Engine, id: string): Promise<{ running: boolean; name: string } | null> {
  try {
    const info = await engine.inspectContainer(id);
    return { running: info.State.Running, name: bareName(info.Name) };
  } catch (err) {
    if (err instanceof NotFoundError) return null;
    throw err;
  }
}

export async function containerProcesses(engine: Engine, name: string): Promise<Processes> {
  try {
    return await engine.top(name);
  } catch (err) {
    if (err instanceof ConflictError) throw new ConflictError(`${name} is not running; start it to see its processes.`);
    throw err;
  }
}

/** Runs one lifecycle action; an app already in the wanted state is fine. */
export async function containerAction(engine: Engine, name: string, action: AppAction): Promise<void> {
  const calls: Record<AppAction, () => Promise<void>> = {
    start: () => engine.startContainer(name),
    stop: () => engine.stopContainer(name),
    restart: () => engine.restartContainer(name),
    kill: () => engine.killContainer(name),
    // Forced like the original: a running container is killed first; its volumes stay.
    remove: () => engine.removeContainer(name, { force: true, volumes: false }),
    pause: () => engine.pauseContainer(name),
    unpause: () => engine.unpauseContainer(name),
  };
  await calls[action]();
}

/** The parts of an image's configuration that a container inherits unless told otherwise. */
export interface ImageDefaults {
  Env?: string[] | null;
  Labels?: Record<string, string> | null;
  Cmd?: unknown;
  Entrypoint?: unknown;
  WorkingDir?: unknown;
  User?: unknown;
  ExposedPorts?: unknown;
  Volumes?: unknown;
  Healthcheck?: unknown;
  StopSignal?: unknown;
}

export interface RecreateSpec {
  create: ContainerSpec;
  /** Networks beyond the first (the engine takes one at create; the rest are connected after). */
  extraNetworks: { name: string; endpoint: object }[];
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
const ANONYMOUS_VOLUME = /^[0-9a-f]{64}$/;
const INHERITED = [
  'Cmd',
  'Entrypoint',
  'WorkingDir',
  'User',
  'ExposedPorts',
  'Volumes',
  'Healthcheck',
  'StopSignal',
] as const;

/**
 * The create request for a copy of `info` running `image`: same ports, environment,
 * labels, mounts, restart policy, networks and limits. What the old image merely supplied (its
 * env, labels, command…) is left for the new image to supply, so the new image's defaults apply
 * while everything set for this container stays. Anonymous volumes are mounted by name so their
 * data carries over.
 */
export function recreateSpec(info: ContainerDetail, oldImage: ImageDefaults | null, image: string): RecreateSpec {
  const config: Record<string, unknown> = { ...info.Config, Image: image };
  if (oldImage) {
    config.Env = (info.Config.Env ?? []).filter((e) => !(oldImage.Env ?? []).includes(e));
    config.Labels = Object.fromEntries(
      Object.entries(info.Config.Labels ?? {}).filter(([k, v]) => oldImage.Labels?.[k] !== v),
    );
    for (const key of INHERITED) if (same(config[key], oldImage[key])) delete config[key];
  }
  // The engine names a container's host after its ID unless told otherwise.
  if (config.Hostname === info.Id.slice(0, 12)) delete config.Hostname;

  const host = { ...info.HostConfig } as ContainerHostConfig & { Links?: string[] | null };
  const declared = new Set<string>([
    ...(host.Binds ?? []).map((b) => b.split(':')[1] ?? ''),
    ...(host.Mounts ?? []).map((m) => m.Target),
  ]);
  const anonymous = (info.Mounts ?? [])
    .filter((m) => m.Type === 'volume' && m.Name && ANONYMOUS_VOLUME.test(m.Name) && !declared.has(m.Destination))
    .map((m) => ({ Type: 'volume' as const, Source: m.Name!, Target: m.Destination, ReadOnly: !m.RW }));
  if (anonymous.length) host.Mounts = [...(host.Mounts ?? []), ...anonymous];
  // Inspect shows legacy links as "/db:/app/db"; create wants "db:db".
  if (host.Links?.length)
    host.Links = host.Links.map((l: string) => `${bareName(l.split(':')[0]!)}:${l.split(':')[1]!.split('/').pop()}`);

  const networks = Object.entries(info.NetworkSettings?.Networks ?? {});
  const mode = host.NetworkMode ?? '';
  const ownStack = networks.length > 0 && !['host', 'none'].includes(mode) && !mode.startsWith('container:');
  const primary = ownStack
    ? (networks.find(([n]) => n === mode) ??
      networks.find(([n]) => n === 'bridge' && mode === 'default') ??
      networks[0]!)
    : null;
  const endpoint = (n: EndpointSettings) => ({
    IPAMConfig: n.IPAMConfig ?? null,
    Links: n.Links ?? null,
    // The engine adds the short ID as an alias by itself; the new container gets its own.
    Aliases: ((n.Aliases as string[] | null) ?? []).filter((a) => a !== info.Id.slice(0, 12)),
    DriverOpts: (n as { DriverOpts?: Record<string, string> }).DriverOpts ?? undefined,
  });
  return {
    create: {
      ...(config as ContainerSpec),
      HostConfig: host,
      ...(primary ? { NetworkingConfig: { EndpointsConfig: { [primary[0]]: endpoint(primary[1]) } } } : {}),
    },
    extraNetworks: ownStack
      ? networks.filter(([n]) => n !== primary![0]).map(([n, cfg]) => ({ name: n, endpoint: endpoint(cfg) }))
      : [],
  };
}
