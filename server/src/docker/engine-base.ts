import type Docker from 'dockerode';
import type {
  DiskUsage,
  DiskUsageKind,
  EngineVersion,
  Filters,
  NetworkCreateSpec,
  PruneAnswer,
  PruneKind,
  RawNetwork,
  RawVolume,
} from './engine';
import { ConflictError, EngineError, EngineTimeoutError } from '../errors';
import { translate, type DockerodeError, type Target } from './engine-errors';

export interface CallOptions<T = unknown> {
  /** Stops, removals, prunes and pulls: the slow timeout. */
  slow?: boolean;
  /** A stream: the timeout covers only its opening. */
  signal?: AbortSignal;
  /** Receives what the engine answers after the timeout (a stream to close: nobody reads it). */
  late?: (value: T) => void;
  /** The engine's 304 ("already started/stopped") counts as done. */
  notModifiedIsDone?: boolean;
  timeoutMs?: number;
}

/**
 * What DockerodeEngine (dockerode-engine.ts) stands on: `call()`, one timeout and one error
 * translation for every engine call (the timeout is ours, an abort plus a race, never dockerode's
 * `timeout` option, which crashes the process over ssh), and the engine's volumes, networks and
 * system calls.
 */
export abstract class DockerodeEngineBase {
  constructor(
    protected readonly docker: Docker,
    private readonly quickMs: number,
    private readonly slowMs: number,
  ) {}

  /** Refuses an id prefix before a delete or an action (see DockerodeEngine). */
  protected abstract exact(kind: 'container' | 'image' | 'network', ref: string): Promise<void>;

  protected async call<T>(t: Target, fn: (signal: AbortSignal) => Promise<T>, opts: CallOptions<T> = {}): Promise<T> {
    const ms = opts.timeoutMs ?? (opts.slow ? this.slowMs : this.quickMs);
    const timeout = new AbortController();
    const signal = opts.signal ? AbortSignal.any([opts.signal, timeout.signal]) : timeout.signal;
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        timeout.abort();
        reject(new EngineTimeoutError(t.doing, Math.round(ms / 100) / 10));
      }, ms);
    });
    const work = fn(signal);
    try {
      return await Promise.race([work, expired]);
    } catch (err) {
      const { late } = opts;
      // The abort does not stop every transport (ssh): an answer that still comes is handed over, never leaked.
      if (late && timeout.signal.aborted) void work.then(late, () => undefined);
      if (opts.notModifiedIsDone && (err as DockerodeError)?.statusCode === 304) return undefined as T;
      throw translate(err, t);
    } finally {
      clearTimeout(timer);
    }
  }

  /** A plain GET the engine answers with JSON, for calls whose dockerode method takes no abort signal. */
  protected get<T>(path: string, abortSignal: AbortSignal, notFound = 'not found'): Promise<T> {
    const modem = this.docker.modem as { dial: (o: object, cb: (err: unknown, data: unknown) => void) => void };
    return new Promise<T>((resolve, reject) => {
      modem.dial(
        { path, method: 'GET', abortSignal, statusCodes: { 200: true, 404: notFound, 500: 'server error' } },
        (err, data) => (err ? reject(err) : resolve(data as T)),
      );
    });
  }

  async listVolumes(): Promise<RawVolume[]> {
    const res = await this.call({ kind: 'volume', doing: 'listing volumes' }, (abortSignal) =>
      this.docker.listVolumes({ abortSignal }),
    );
    return (res.Volumes ?? []) as RawVolume[];
  }

  async inspectVolume(name: string): Promise<RawVolume> {
    return (await this.call({ kind: 'volume', ref: name, doing: `inspecting volume ${name}` }, (abortSignal) =>
      this.docker.getVolume(name).inspect({ abortSignal }),
    )) as RawVolume;
  }

  async createVolume(name: string): Promise<void> {
    await this.call({ kind: 'volume', ref: name, doing: `creating volume ${name}` }, (abortSignal) =>
      this.docker.createVolume({ Name: name, Driver: 'local', abortSignal }),
    );
  }

  /** Not forced: a volume a container uses stays (409). Volumes are addressed by name only. */
  async removeVolume(name: string): Promise<void> {
    await this.call(
      { kind: 'volume', ref: name, doing: `removing volume ${name}` },
      (abortSignal) => this.docker.getVolume(name).remove({ abortSignal }),
      { slow: true },
    );
  }

  async listNetworks(): Promise<RawNetwork[]> {
    return (await this.call({ kind: 'network', doing: 'listing networks' }, (abortSignal) =>
      this.docker.listNetworks({ abortSignal }),
    )) as RawNetwork[];
  }

  async inspectNetwork(ref: string): Promise<RawNetwork> {
    return (await this.call({ kind: 'network', ref, doing: `inspecting network ${ref}` }, (abortSignal) =>
      this.get<RawNetwork>(`/networks/${encodeURIComponent(ref)}`, abortSignal, 'no such network'),
    )) as RawNetwork;
  }

  async createNetwork(spec: NetworkCreateSpec): Promise<string> {
    const net = await this.call(
      { kind: 'network', ref: spec.Name, doing: `creating network ${spec.Name}` },
      (abortSignal) => this.docker.createNetwork({ ...spec, CheckDuplicate: true, abortSignal }),
    );
    return net.id;
  }

  /** Engines before API 1.42 answer 403 for "still in use" and built-ins; both mean conflict. */
  async removeNetwork(ref: string): Promise<void> {
    await this.exact('network', ref);
    try {
      await this.call(
        { kind: 'network', ref, doing: `removing network ${ref}` },
        (abortSignal) => this.docker.getNetwork(ref).remove({ abortSignal }),
        { slow: true },
      );
    } catch (err) {
      if (err instanceof EngineError && err.statusCode === 403) throw new ConflictError(err.message);
      throw err;
    }
  }

  async connectNetwork(network: string, containerId: string, endpoint: object): Promise<void> {
    await this.call(
      { kind: 'network', ref: network, doing: `connecting a container to network ${network}` },
      (abortSignal) =>
        this.docker
          .getNetwork(network)
          .connect({ Container: containerId, EndpointConfig: endpoint, abortSignal } as Docker.NetworkConnectOptions),
    );
  }

  prune(kind: PruneKind, filters: Filters): Promise<PruneAnswer> {
    const t: Target = { kind: 'engine', doing: `pruning ${kind}` };
    const run = {
      images: (abortSignal: AbortSignal) => this.docker.pruneImages({ filters, abortSignal }),
      containers: (abortSignal: AbortSignal) => this.docker.pruneContainers({ filters, abortSignal }),
      networks: (abortSignal: AbortSignal) => this.docker.pruneNetworks({ filters, abortSignal }),
      volumes: (abortSignal: AbortSignal) => this.docker.pruneVolumes({ filters, abortSignal }),
    }[kind] as (s: AbortSignal) => Promise<PruneAnswer>;
    return this.call(t, run, { slow: true });
  }

  /** `type` narrows the work (API 1.42+); older engines ignore it and answer for every kind. */
  diskUsage(kind: DiskUsageKind): Promise<DiskUsage> {
    return this.call(
      { kind: 'engine', doing: `measuring the disk use of ${kind}s` },
      (abortSignal) => this.get<DiskUsage>(`/system/df?type=${kind}`, abortSignal),
      { slow: true },
    );
  }

  version() {
    return this.call({ kind: 'engine', doing: 'telling its version' }, (abortSignal) =>
      this.get<EngineVersion>('/version', abortSignal),
    );
  }

  async ping() {
    await this.call({ kind: 'engine', doing: 'answering a ping' }, (abortSignal) =>
      this.get<unknown>('/_ping', abortSignal),
    );
  }

  info() {
    return this.call({ kind: 'engine', doing: 'describing itself' }, (abortSignal) =>
      this.get<Record<string, unknown>>('/info', abortSignal),
    );
  }
}
