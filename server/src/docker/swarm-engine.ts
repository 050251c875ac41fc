import type Docker from 'dockerode';
import type { ByteStream, Filters, RegistryAuth } from './engine';
import type { Target } from './engine-errors';
import { sinceParam } from './logs';

/** The engine's JSON for swarm objects: only the fields Berth reads (the rest passes untouched). */
export interface Versioned {
  ID: string;
  Version: { Index: number };
  CreatedAt: string;
  UpdatedAt: string;
}

export interface RawSwarm extends Versioned {
  Spec: {
    Raft?: {
      SnapshotInterval?: number;
      ElectionTick?: number;
      HeartbeatTick?: number;
      LogEntriesForSlowFollowers?: number;
    };
    Dispatcher?: { HeartbeatPeriod?: number };
    Orchestration?: { TaskHistoryRetentionLimit?: number };
    EncryptionConfig?: { AutoLockManagers?: boolean };
  };
  DefaultAddrPool?: string[];
  DataPathPort?: number;
}

export interface NodeSpec {
  Name?: string;
  Labels?: Record<string, string>;
  Role: 'manager' | 'worker';
  Availability: 'active' | 'pause' | 'drain';
}

export interface RawNode extends Versioned {
  Spec: NodeSpec;
  Description?: {
    Hostname?: string;
    Engine?: { EngineVersion?: string };
    Resources?: { NanoCPUs?: number; MemoryBytes?: number };
  };
  Status?: { State?: string; Addr?: string };
  ManagerStatus?: { Leader?: boolean; Addr?: string };
}

export interface ServicePortConfig {
  Protocol?: 'tcp' | 'udp' | 'sctp';
  TargetPort?: number;
  PublishedPort?: number;
  PublishMode?: 'ingress' | 'host';
}

/** A service spec as the engine takes it (and answers it); unknown parts are kept as they are. */
export interface ServiceSpec {
  Name: string;
  Labels?: Record<string, string>;
  TaskTemplate: {
    ContainerSpec: {
      Image: string;
      Args?: string[];
      Command?: string[];
      Env?: string[];
      Labels?: Record<string, string>;
      /** Besides these, the engine's mount options (VolumeOptions, TmpfsOptions…), kept through an edit. */
      Mounts?: { Type?: string; Source?: string; Target?: string; ReadOnly?: boolean; [k: string]: unknown }[];
      Secrets?: {
        SecretID: string;
        SecretName: string;
        File?: { Name: string; UID: string; GID: string; Mode: number };
      }[];
      Configs?: {
        ConfigID: string;
        ConfigName: string;
        File?: { Name: string; UID: string; GID: string; Mode: number };
      }[];
      [k: string]: unknown;
    };
    Resources?: { Limits?: ResourceAmounts; Reservations?: ResourceAmounts };
    RestartPolicy?: { Condition?: string; Delay?: number; MaxAttempts?: number; Window?: number };
    Placement?: { Constraints?: string[]; [k: string]: unknown };
    Networks?: { Target: string; Aliases?: string[] }[];
    ForceUpdate?: number;
    [k: string]: unknown;
  };
  Mode?: { Replicated?: { Replicas?: number }; Global?: Record<string, never> };
  UpdateConfig?: UpdateConfig;
  RollbackConfig?: UpdateConfig;
  EndpointSpec?: { Mode?: string; Ports?: ServicePortConfig[] };
  [k: string]: unknown;
}

/** CPU and memory, besides what the form does not edit (Pids, GenericResources), kept through an edit. */
export interface ResourceAmounts {
  NanoCPUs?: number;
  MemoryBytes?: number;
  [k: string]: unknown;
}

export interface UpdateConfig {
  Parallelism?: number;
  Delay?: number;
  FailureAction?: string;
  Monitor?: number;
  MaxFailureRatio?: number;
  Order?: string;
}

export interface RawService extends Versioned {
  Spec: ServiceSpec;
  PreviousSpec?: ServiceSpec;
  Endpoint?: { Ports?: ServicePortConfig[] };
  UpdateStatus?: { State?: string; Message?: string };
  ServiceStatus?: { RunningTasks?: number; DesiredTasks?: number };
}

export interface RawTask extends Versioned {
  ServiceID: string;
  NodeID?: string;
  Slot?: number;
  DesiredState: string;
  Spec: { ContainerSpec?: { Image?: string } };
  Status: { State: string; Message?: string; Err?: string; ContainerStatus?: { ContainerID?: string } };
}

export interface RawSwarmObject extends Versioned {
  Spec: { Name: string; Labels?: Record<string, string> };
}

export type SwarmObjectKind = 'config' | 'secret';

export interface ServiceLogQuery {
  follow: boolean;
  tail?: number;
  /** Only lines after this point (nanoseconds since the epoch, exclusive). */
  afterNanos?: bigint;
  timestamps?: boolean;
  signal?: AbortSignal;
}

/** Swarm calls; the same timeouts and error translation as every engine call. */
export interface SwarmEngine {
  inspect(): Promise<RawSwarm>;
  listNodes(): Promise<RawNode[]>;
  inspectNode(ref: string): Promise<RawNode>;
  updateNode(id: string, version: number, spec: NodeSpec): Promise<void>;

  listServices(filters?: Filters): Promise<RawService[]>;
  inspectService(ref: string): Promise<RawService>;
  /** With `auth` (X-Registry-Auth) the managers hand the credential to the nodes that pull the image. */
  createService(spec: ServiceSpec, auth?: RegistryAuth): Promise<string>;
  /** `rollback` asks the engine to go back to the service's previous spec (the body is then ignored). */
  updateService(
    id: string,
    version: number,
    spec: ServiceSpec,
    opts?: { rollback?: boolean; auth?: RegistryAuth | undefined },
  ): Promise<void>;
  removeService(id: string): Promise<void>;
  listTasks(filters: Filters): Promise<RawTask[]>;
  serviceLogs(id: string, q: ServiceLogQuery): Promise<ByteStream>;

  listObjects(kind: SwarmObjectKind): Promise<RawSwarmObject[]>;
  /** `data` is sent base64-encoded as the engine wants it; it is never read back. */
  createObject(
    kind: SwarmObjectKind,
    spec: { Name: string; Labels: Record<string, string>; Data: string },
  ): Promise<string>;
  removeObject(kind: SwarmObjectKind, id: string): Promise<void>;
}

export type Caller = <T>(
  t: Target,
  fn: (signal: AbortSignal) => Promise<T>,
  opts?: { slow?: boolean; signal?: AbortSignal; timeoutMs?: number },
) => Promise<T>;

type Modem = { dial: (o: object, cb: (err: unknown, data: unknown) => void) => void };

interface Dial {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  query?: Record<string, unknown>;
  body?: unknown;
  isStream?: boolean;
  auth?: RegistryAuth | undefined;
}

const enc = encodeURIComponent;

/** The swarm part of the engine facade, over dockerode's modem (raw calls keep the abort signal). */
export class DockerodeSwarm implements SwarmEngine {
  constructor(
    private readonly docker: Docker,
    private readonly call: Caller,
  ) {}

  private dial<T>(d: Dial, abortSignal: AbortSignal): Promise<T> {
    const modem = this.docker.modem as Modem;
    const hasQuery = d.query !== undefined;
    return new Promise<T>((resolve, reject) => {
      modem.dial(
        {
          path: hasQuery ? `${d.path}?` : d.path,
          method: d.method,
          options: { ...(hasQuery ? { _query: d.query } : {}), ...(d.body !== undefined ? { _body: d.body } : {}) },
          abortSignal,
          ...(d.auth ? { authconfig: { ...d.auth } } : {}),
          isStream: d.isStream ?? false,
          statusCodes: {
            200: true,
            201: true,
            204: true,
            304: true,
            400: 'bad parameter',
            404: 'not found',
            409: 'conflict',
            500: 'server error',
            503: 'not in swarm',
          },
        },
        (err, data) => (err ? reject(err) : resolve(data as T)),
      );
    });
  }

  private get<T>(t: Target, path: string, query?: Record<string, unknown>): Promise<T> {
    return this.call(t, (s) => this.dial<T>({ method: 'GET', path, ...(query ? { query } : {}) }, s));
  }

  inspect() {
    return this.get<RawSwarm>({ kind: 'swarm', doing: 'describing the swarm' }, '/swarm');
  }
  listNodes() {
    return this.get<RawNode[]>({ kind: 'node', doing: 'listing swarm nodes' }, '/nodes');
  }
  inspectNode(ref: string) {
    return this.get<RawNode>({ kind: 'node', ref, doing: `inspecting node ${ref}` }, `/nodes/${enc(ref)}`);
  }
  async updateNode(id: string, version: number, spec: NodeSpec) {
    await this.call({ kind: 'node', ref: id, doing: `updating node ${id}` }, (s) =>
      this.dial({ method: 'POST', path: `/nodes/${enc(id)}/update`, query: { version }, body: spec }, s),
    );
  }

  listServices(filters?: Filters) {
    return this.get<RawService[]>({ kind: 'service', doing: 'listing services' }, '/services', {
      status: true,
      ...(filters ? { filters: JSON.stringify(filters) } : {}),
    });
  }
  inspectService(ref: string) {
    return this.get<RawService>({ kind: 'service', ref, doing: `inspecting service ${ref}` }, `/services/${enc(ref)}`);
  }
  async createService(spec: ServiceSpec, auth?: RegistryAuth) {
    const res = await this.call({ kind: 'service', ref: spec.Name, doing: `creating service ${spec.Name}` }, (s) =>
      this.dial<{ ID: string }>({ method: 'POST', path: '/services/create', body: spec, auth }, s),
    );
    return res.ID;
  }
  async updateService(
    id: string,
    version: number,
    spec: ServiceSpec,
    opts: { rollback?: boolean; auth?: RegistryAuth | undefined } = {},
  ) {
    const query = { version, ...(opts.rollback ? { rollback: 'previous' } : {}) };
    await this.call(
      { kind: 'service', ref: id, doing: `${opts.rollback ? 'rolling back' : 'updating'} service ${id}` },
      (s) => this.dial({ method: 'POST', path: `/services/${enc(id)}/update`, query, body: spec, auth: opts.auth }, s),
    );
  }
  async removeService(id: string) {
    await this.call(
      { kind: 'service', ref: id, doing: `removing service ${id}` },
      (s) => this.dial({ method: 'DELETE', path: `/services/${enc(id)}` }, s),
      { slow: true },
    );
  }
  listTasks(filters: Filters) {
    return this.get<RawTask[]>({ kind: 'task', doing: 'listing tasks' }, '/tasks', {
      filters: JSON.stringify(filters),
    });
  }
  serviceLogs(id: string, q: ServiceLogQuery) {
    const query = {
      stdout: true,
      stderr: true,
      follow: q.follow,
      timestamps: Boolean(q.timestamps),
      ...(q.tail !== undefined ? { tail: q.tail } : {}),
      // The engine's `since` is inclusive; one nanosecond later skips the line already sent.
      ...(q.afterNanos !== undefined ? { since: sinceParam(q.afterNanos + 1n) } : {}),
    };
    return this.call(
      { kind: 'service', ref: id, doing: `reading the log of service ${id}` },
      (s) => this.dial<ByteStream>({ method: 'GET', path: `/services/${enc(id)}/logs`, query, isStream: true }, s),
      {
        ...(q.signal ? { signal: q.signal } : {}),
      },
    );
  }

  listObjects(kind: SwarmObjectKind) {
    return this.get<RawSwarmObject[]>({ kind, doing: `listing ${kind}s` }, `/${kind}s`);
  }
  async createObject(kind: SwarmObjectKind, spec: { Name: string; Labels: Record<string, string>; Data: string }) {
    const body = { ...spec, Data: Buffer.from(spec.Data, 'utf8').toString('base64') };
    const res = await this.call({ kind, ref: spec.Name, doing: `creating ${kind} ${spec.Name}` }, (s) =>
      this.dial<{ ID: string }>({ method: 'POST', path: `/${kind}s/create`, body }, s),
    );
    return res.ID;
  }
  async removeObject(kind: SwarmObjectKind, id: string) {
    await this.call({ kind, ref: id, doing: `removing ${kind} ${id}` }, (s) =>
      this.dial({ method: 'DELETE', path: `/${kind}s/${enc(id)}` }, s),
    );
  }
}
