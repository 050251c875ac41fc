// The only other file in docker/ that names dockerode, and only for its type declarations of the
// engine's JSON (the implementation lives in dockerode-engine.ts).
import type Docker from 'dockerode';
import type { Processes } from '@berth/contract';
import type { ContainerChanges } from './container-changes';
import type { SwarmEngine } from './swarm-engine';
import type { ImageTransfer } from './image-transfer';

/** One container as the engine's list shows it. */
export type ContainerListEntry = Docker.ContainerInfo;
/** One container as the engine's inspect shows it. */
export type ContainerDetail = Docker.ContainerInspectInfo;
/** What a container is created from (the engine's create body without the name). */
export type ContainerSpec = Omit<Docker.ContainerCreateOptions, 'name' | 'abortSignal'>;
export type ContainerHostConfig = Docker.HostConfig;
export type EndpointSettings = Docker.NetworkInfo;
export type ImageListEntry = Docker.ImageInfo;
export type ImageInspect = Docker.ImageInspectInfo;
export type EngineVersion = Docker.DockerVersion;
export type EnginePort = Docker.Port;

export interface RawNetwork {
  Id: string;
  Name: string;
  Driver: string;
  Scope: string;
  Attachable?: boolean;
  Internal?: boolean;
  Ingress?: boolean;
  ConfigOnly?: boolean;
  EnableIPv6?: boolean;
  Created?: string;
  Labels?: Record<string, string> | null;
  Options?: Record<string, string> | null;
  IPAM?: {
    Driver?: string;
    Config?: { Subnet?: string; Gateway?: string; IPRange?: string }[] | null;
    Options?: unknown;
  } | null;
  Containers?: Record<
    string,
    { Name: string; EndpointID: string; MacAddress: string; IPv4Address: string; IPv6Address: string }
  > | null;
}

export interface RawVolume {
  Name: string;
  Driver: string;
  Mountpoint: string;
  Scope: string;
  CreatedAt?: string;
  Labels?: Record<string, string> | null;
  Options?: Record<string, string> | null;
}

export interface NetworkCreateSpec {
  Name: string;
  Driver: string;
  Internal: boolean;
  Attachable: boolean;
  EnableIPv6: boolean;
  Options?: Record<string, string>;
  IPAM?: { Driver: string; Config: { Subnet: string; Gateway?: string; IPRange?: string }[] };
}

export interface RemovedImage {
  Untagged?: string;
  Deleted?: string;
}

export type PruneKind = 'images' | 'containers' | 'networks' | 'volumes';
export interface PruneAnswer {
  ImagesDeleted?: { Untagged?: string; Deleted?: string }[] | null;
  ContainersDeleted?: string[] | null;
  NetworksDeleted?: string[] | null;
  VolumesDeleted?: string[] | null;
  SpaceReclaimed?: number;
}

export type Filters = Record<string, string[]>;

/** The engine's disk usage (`docker system df -v`) for one kind, as far as a prune preview needs it. */
export interface DiskUsage {
  Images?:
    | {
        Id: string;
        RepoTags?: string[] | null;
        Size: number;
        SharedSize: number;
        Containers: number;
        Labels?: Record<string, string> | null;
      }[]
    | null;
  Containers?:
    | {
        Id: string;
        Names?: string[];
        Image: string;
        State: string;
        SizeRw?: number;
        Labels?: Record<string, string> | null;
      }[]
    | null;
  Volumes?:
    | { Name: string; Labels?: Record<string, string> | null; UsageData?: { Size: number; RefCount: number } | null }[]
    | null;
}
export type DiskUsageKind = 'image' | 'container' | 'volume';

/**
 * A registry credential as the engine takes it (the X-Registry-Auth header of a pull, push,
 * distribution inspect or service call): sent with that one call, never stored on the engine's host.
 */
export interface RegistryAuth {
  username: string;
  password: string;
  serveraddress: string;
}

/** A byte stream from the engine (logs, stats, events, pull progress); destroy it when done. */
export type ByteStream = NodeJS.ReadableStream & AsyncIterable<Buffer> & { destroy?: (err?: Error) => void };

export interface LogQuery {
  follow: boolean;
  timestamps: boolean;
  tail?: number;
  /** The engine's `since` ("seconds.nanoseconds", inclusive). */
  since?: string;
  /** The engine's `until` (same format, exclusive): lines before it only. */
  until?: string;
  signal?: AbortSignal;
}

export interface ExecSpec {
  Cmd: string[];
  Tty?: boolean;
  AttachStdin?: boolean;
  AttachStdout?: boolean;
  AttachStderr?: boolean;
  Env?: string[];
  WorkingDir?: string;
  User?: string;
  /** The input sequence that detaches the client (the engine's default is ctrl-p,ctrl-q). */
  DetachKeys?: string;
}

export interface ExecState {
  ID: string;
  Running: boolean;
  ExitCode: number | null;
  ContainerID: string;
}

/**
 * The Docker engine as Berth uses it. Every call has a timeout and one error translation:
 * unreachable → DockerUnavailableError (503), no answer in time → EngineTimeoutError (504),
 * 404 → NotFoundError naming the kind and name, 409 → ConflictError, anything else → EngineError
 * with the engine's status and message. Streams have no overall timeout (only for their opening).
 * Deletes and actions take names or full ids only (never an id prefix).
 */
export interface Engine {
  listContainers(opts?: { all?: boolean; filters?: Filters }): Promise<ContainerListEntry[]>;
  inspectContainer(ref: string): Promise<ContainerDetail>;
  /** Creates a container and answers its id. */
  createContainer(name: string, spec: ContainerSpec): Promise<string>;
  /** Already started / stopped / paused counts as done. */
  startContainer(ref: string): Promise<void>;
  stopContainer(ref: string, timeoutSeconds?: number): Promise<void>;
  restartContainer(ref: string): Promise<void>;
  killContainer(ref: string): Promise<void>;
  removeContainer(ref: string, opts: { force: boolean; volumes: boolean }): Promise<void>;
  /**
   * Awaits `fn` before each removeContainer, while the container still exists: the one place every
   * removal by Berth passes (app remove, replace on edit/update/rollback) keeps its last log lines
   * (services/log-archive). `fn` must not throw. Returns the unsubscribe.
   */
  beforeRemove(fn: (ref: string) => Promise<void>): () => void;
  renameContainer(ref: string, name: string): Promise<void>;
  pauseContainer(ref: string): Promise<void>;
  unpauseContainer(ref: string): Promise<void>;
  top(ref: string): Promise<Processes>;
  logs(ref: string, query: LogQuery): Promise<ByteStream>;
  stats(ref: string, signal: AbortSignal): Promise<ByteStream>;
  /**
   * The engine's events. With `range` (the engine's "seconds.nanoseconds"), the ones it still
   * holds from `since` (its last 256) first; the stream ends once `until` has passed, if given.
   */
  events(filters: Filters, signal: AbortSignal, range?: { since: string; until?: string }): Promise<ByteStream>;

  execCreate(ref: string, spec: ExecSpec): Promise<string>;
  /** `late` receives a stream that arrives after the call timed out (the caller had given up on it). */
  execStart(
    execId: string,
    opts: { tty: boolean; signal?: AbortSignal; late?: (stream: NodeJS.ReadWriteStream) => void },
  ): Promise<NodeJS.ReadWriteStream>;
  execResize(execId: string, size: { rows: number; cols: number }): Promise<void>;
  execInspect(execId: string): Promise<ExecState>;

  listImages(): Promise<ImageListEntry[]>;
  inspectImage(ref: string): Promise<ImageInspect>;
  removeImage(ref: string, force: boolean): Promise<RemovedImage[]>;
  /** Points `repository:tag` at the image `ref` names (moving the tag if another image had it). */
  tagImage(ref: string, repository: string, tag: string): Promise<void>;
  /** Starts a pull (with `auth`, sent as X-Registry-Auth: never stored on the engine); the stream carries the engine's JSON progress lines. */
  pullImage(repository: string, tag: string, signal?: AbortSignal, auth?: RegistryAuth): Promise<ByteStream>;
  /** The registry's descriptor for a reference, asked through the engine (its registry settings, and `auth` when given). */
  distributionInspect(
    ref: string,
    timeoutMs: number,
    auth?: RegistryAuth,
  ): Promise<{ Descriptor?: { digest?: string } }>;

  listVolumes(): Promise<RawVolume[]>;
  inspectVolume(name: string): Promise<RawVolume>;
  createVolume(name: string): Promise<void>;
  removeVolume(name: string): Promise<void>;

  listNetworks(): Promise<RawNetwork[]>;
  inspectNetwork(ref: string): Promise<RawNetwork>;
  createNetwork(spec: NetworkCreateSpec): Promise<string>;
  removeNetwork(ref: string): Promise<void>;
  connectNetwork(network: string, containerId: string, endpoint: object): Promise<void>;

  prune(kind: PruneKind, filters: Filters): Promise<PruneAnswer>;
  /** What one kind takes on disk (sizes the engine computes on demand: slow, so only for a prune preview). */
  diskUsage(kind: DiskUsageKind): Promise<DiskUsage>;
  version(): Promise<EngineVersion>;
  /** Whether the engine answers, at no cost to it (GET /_ping; /version makes the engine run helper binaries). */
  ping(): Promise<void>;
  info(): Promise<Record<string, unknown>>;

  /** Nodes, services, tasks, configs and secrets (a swarm manager only; else NotInSwarmError). */
  readonly swarm: SwarmEngine;
  /** Changes that keep a container: limits, commit, network disconnect. */
  readonly containers: ContainerChanges;
  /** Build, push, save and load images. */
  readonly images: ImageTransfer;
}
