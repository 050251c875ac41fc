import type Docker from 'dockerode';
import type { Processes } from '@berth/contract';
import type {
  ByteStream,
  ContainerSpec,
  Engine,
  ExecSpec,
  ExecState,
  Filters,
  ImageInspect,
  LogQuery,
  RegistryAuth,
  RemovedImage,
} from './engine';
import { connectionFromHost, dockerFor, type EngineConnection } from './connection';
import { foundByIdPrefix, SHORT_ID_LENGTH } from './names';
import { EngineError, NotFoundError } from '../errors';
import type { Target } from './engine-errors';
import { DockerodeEngineBase } from './engine-base';
import { DockerodeSwarm, type SwarmEngine } from './swarm-engine';
import { DockerodeContainerChanges, type ContainerChanges } from './container-changes';
import { DockerodeImageTransfer, type ImageTransfer } from './image-transfer';

export interface EngineConfig {
  dockerHost: string | undefined;
  /** How to reach the engine; DOCKER_HOST when absent. */
  connection?: EngineConnection;
  engineTimeoutMs: number;
  engineSlowTimeoutMs: number;
}

/** Something that might be an id prefix rather than a name: the engine would match it against ids. */
const HEXISH = /^(sha256:)?[0-9a-f]{1,63}$/;

/**
 * The Docker engine through dockerode. Every call goes through `call()` (engine-base.ts): one timeout and one
 * error translation. The timeout is ours (an abort plus a race), never dockerode's `timeout`
 * option, which crashes the process over ssh.
 */
class DockerodeEngine extends DockerodeEngineBase implements Engine {
  readonly swarm: SwarmEngine;
  readonly containers: ContainerChanges;
  readonly images: ImageTransfer;
  private readonly removeHooks = new Set<(ref: string) => Promise<void>>();

  constructor(docker: Docker, quickMs: number, slowMs: number) {
    super(docker, quickMs, slowMs);
    this.swarm = new DockerodeSwarm(docker, (t, fn, opts) => this.call(t, fn, opts));
    this.containers = new DockerodeContainerChanges(docker, (t, fn, opts) => this.call(t, fn, opts));
    this.images = new DockerodeImageTransfer(docker, (t, fn, opts) => this.call(t, fn, opts));
  }

  /**
   * Refuses an id prefix before a delete or an action: a ref that could be one is looked up and
   * must be the object's name or full id (or a container's short id).
   */
  protected async exact(kind: 'container' | 'image' | 'network', ref: string): Promise<void> {
    if (!HEXISH.test(ref)) return;
    const bare = ref.replace(/^sha256:/, '');
    if (kind === 'container' && (bare.length === SHORT_ID_LENGTH || bare.length === 12)) return;
    let found: { id: string; names: string[] };
    if (kind === 'container') {
      const c = await this.inspectContainer(ref);
      found = { id: c.Id, names: [c.Name] };
    } else if (kind === 'image') {
      const i = await this.inspectImage(ref);
      found = { id: i.Id, names: [...(i.RepoTags ?? []), ...(i.RepoDigests ?? [])] };
    } else {
      const n = await this.inspectNetwork(ref);
      found = { id: n.Id, names: [n.Name] };
    }
    if (foundByIdPrefix(ref, found, { shortIds: kind === 'container' })) throw new NotFoundError(kind, ref);
  }

  private container(ref: string, doing: string): Target {
    return { kind: 'container', ref, doing: `${doing} container ${ref}` };
  }

  listContainers(opts: { all?: boolean; filters?: Filters } = {}) {
    return this.call({ kind: 'container', doing: 'listing containers' }, (abortSignal) =>
      this.docker.listContainers({
        all: opts.all ?? false,
        ...(opts.filters ? { filters: opts.filters } : {}),
        abortSignal,
      }),
    );
  }

  inspectContainer(ref: string) {
    return this.call(this.container(ref, 'inspecting'), (abortSignal) =>
      this.docker.getContainer(ref).inspect({ abortSignal }),
    );
  }

  async createContainer(name: string, spec: ContainerSpec): Promise<string> {
    const created = await this.call(this.container(name, 'creating'), (abortSignal) =>
      this.docker.createContainer({ ...spec, name, abortSignal }),
    );
    return created.id;
  }

  private async action(
    ref: string,
    doing: string,
    fn: (c: Docker.Container, abortSignal: AbortSignal) => Promise<unknown>,
    slow = false,
  ): Promise<void> {
    await this.exact('container', ref);
    await this.call(this.container(ref, doing), (abortSignal) => fn(this.docker.getContainer(ref), abortSignal), {
      slow,
      notModifiedIsDone: true,
    });
  }

  startContainer(ref: string) {
    return this.action(ref, 'starting', (c, abortSignal) => c.start({ abortSignal }), true);
  }
  stopContainer(ref: string, timeoutSeconds?: number) {
    return this.action(
      ref,
      'stopping',
      (c, abortSignal) => c.stop({ ...(timeoutSeconds !== undefined ? { t: timeoutSeconds } : {}), abortSignal }),
      true,
    );
  }
  restartContainer(ref: string) {
    return this.action(ref, 'restarting', (c, abortSignal) => c.restart({ abortSignal }), true);
  }
  killContainer(ref: string) {
    return this.action(ref, 'killing', (c, abortSignal) => c.kill({ abortSignal }));
  }
  beforeRemove(fn: (ref: string) => Promise<void>): () => void {
    this.removeHooks.add(fn);
    return () => this.removeHooks.delete(fn);
  }
  async removeContainer(ref: string, opts: { force: boolean; volumes: boolean }) {
    for (const hook of this.removeHooks) await hook(ref);
    return this.action(
      ref,
      'removing',
      (c, abortSignal) => c.remove({ force: opts.force, v: opts.volumes, abortSignal }),
      true,
    );
  }
  renameContainer(ref: string, name: string) {
    return this.action(ref, 'renaming', (c, abortSignal) => c.rename({ name, abortSignal }));
  }
  pauseContainer(ref: string) {
    return this.action(ref, 'pausing', (c, abortSignal) => c.pause({ abortSignal }));
  }
  unpauseContainer(ref: string) {
    return this.action(ref, 'unpausing', (c, abortSignal) => c.unpause({ abortSignal }));
  }

  async top(ref: string): Promise<Processes> {
    const top = (await this.call(this.container(ref, 'listing the processes of'), (abortSignal) =>
      this.docker.getContainer(ref).top({ abortSignal }),
    )) as Partial<Processes>;
    return { Titles: top?.Titles ?? [], Processes: top?.Processes ?? [] };
  }

  logs(ref: string, q: LogQuery): Promise<ByteStream> {
    const options: Record<string, string | number | boolean> = {
      stdout: true,
      stderr: true,
      follow: q.follow,
      timestamps: q.timestamps,
    };
    if (q.tail !== undefined) options.tail = q.tail;
    if (q.since !== undefined) options.since = q.since;
    if (q.until !== undefined) options.until = q.until;
    const modem = this.docker.modem as { dial: (o: object, cb: (err: unknown, data: unknown) => void) => void };
    return this.call(
      this.container(ref, 'reading the log of'),
      (abortSignal) =>
        new Promise<ByteStream>((resolve, reject) => {
          modem.dial(
            {
              path: `/containers/${encodeURIComponent(ref)}/logs?`,
              method: 'GET',
              options,
              abortSignal,
              // Always a stream (dockerode buffers the whole log in memory when not following).
              isStream: true,
              statusCodes: { 200: true, 404: 'no such container', 500: 'server error' },
            },
            (err, data) => (err ? reject(err) : resolve(data as ByteStream)),
          );
        }),
      { signal: q.signal },
    );
  }

  stats(ref: string, signal: AbortSignal): Promise<ByteStream> {
    return this.call(
      this.container(ref, 'reading the stats of'),
      (abortSignal) =>
        this.docker.getContainer(ref).stats({ stream: true, abortSignal } as { stream: true }) as Promise<ByteStream>,
      { signal },
    );
  }

  events(filters: Filters, signal: AbortSignal, range?: { since: string; until?: string }): Promise<ByteStream> {
    // The engine takes "seconds.nanoseconds" strings; dockerode's types say number but pass them through.
    const span = range as unknown as { since?: number; until?: number } | undefined;
    return this.call(
      { kind: 'engine', doing: 'subscribing to events' },
      (abortSignal) => this.docker.getEvents({ filters, ...span, abortSignal }) as Promise<ByteStream>,
      {
        signal,
      },
    );
  }

  async execCreate(ref: string, spec: ExecSpec): Promise<string> {
    const exec = await this.call(this.container(ref, 'starting a command in'), (abortSignal) =>
      this.docker.getContainer(ref).exec({ ...spec, abortSignal }),
    );
    return exec.id;
  }

  execStart(
    execId: string,
    opts: { tty: boolean; signal?: AbortSignal; late?: (stream: NodeJS.ReadWriteStream) => void },
  ): Promise<NodeJS.ReadWriteStream> {
    return this.call(
      { kind: 'exec', ref: execId, doing: `attaching to command ${execId}` },
      (abortSignal) =>
        this.docker
          .getExec(execId)
          .start({ hijack: true, stdin: true, Tty: opts.tty, abortSignal }) as Promise<NodeJS.ReadWriteStream>,
      { signal: opts.signal, late: opts.late },
    );
  }

  async execResize(execId: string, size: { rows: number; cols: number }): Promise<void> {
    await this.call({ kind: 'exec', ref: execId, doing: `resizing command ${execId}` }, (abortSignal) =>
      this.docker.getExec(execId).resize({ h: size.rows, w: size.cols, abortSignal }),
    );
  }

  async execInspect(execId: string): Promise<ExecState> {
    const i = await this.call({ kind: 'exec', ref: execId, doing: `inspecting command ${execId}` }, (abortSignal) =>
      this.docker.getExec(execId).inspect({ abortSignal }),
    );
    return { ID: i.ID, Running: i.Running, ExitCode: i.ExitCode ?? null, ContainerID: i.ContainerID };
  }

  listImages() {
    return this.call({ kind: 'image', doing: 'listing images' }, (abortSignal) =>
      // shared-size: the engine counts each image's layers that others use too (API 1.42+; older engines ignore it).
      this.docker.listImages({ all: false, 'shared-size': true, abortSignal } as Docker.ListImagesOptions),
    );
  }

  inspectImage(ref: string) {
    return this.call({ kind: 'image', ref, doing: `inspecting image ${ref}` }, (abortSignal) =>
      this.get<ImageInspect>(`/images/${ref}/json`, abortSignal, 'no such image'),
    );
  }

  async removeImage(ref: string, force: boolean): Promise<RemovedImage[]> {
    await this.exact('image', ref);
    return this.call(
      { kind: 'image', ref, doing: `removing image ${ref}` },
      (abortSignal) => this.docker.getImage(ref).remove({ force, abortSignal }) as Promise<RemovedImage[]>,
      { slow: true },
    );
  }

  async tagImage(ref: string, repository: string, tag: string): Promise<void> {
    await this.exact('image', ref);
    await this.call({ kind: 'image', ref, doing: `tagging image ${ref} as ${repository}:${tag}` }, (abortSignal) =>
      this.docker.getImage(ref).tag({ repo: repository, tag, abortSignal }),
    );
  }

  async pullImage(repository: string, tag: string, signal?: AbortSignal, auth?: RegistryAuth): Promise<ByteStream> {
    const ref = `${repository}${tag.startsWith('sha256:') ? '@' : ':'}${tag}`;
    try {
      return await this.call(
        { kind: 'image', ref, doing: `pulling image ${ref}` },
        (abortSignal) =>
          this.docker.createImage({
            fromImage: repository,
            tag,
            abortSignal,
            ...(auth ? { authconfig: { ...auth } } : {}),
          }) as Promise<ByteStream>,
        { slow: true, ...(signal ? { signal } : {}) },
      );
    } catch (err) {
      // The engine calls a registry it cannot reach its own 500; it is a bad gateway.
      if (err instanceof EngineError && err.statusCode >= 500)
        throw new EngineError(502, `Pulling ${ref} failed: ${err.message}`);
      throw err;
    }
  }

  distributionInspect(
    ref: string,
    timeoutMs: number,
    auth?: RegistryAuth,
  ): Promise<{ Descriptor?: { digest?: string } }> {
    const modem = this.docker.modem as { dial: (o: object, cb: (err: unknown, data: unknown) => void) => void };
    return this.call(
      { kind: 'image', ref, doing: `asking the registry about ${ref}` },
      (abortSignal) =>
        new Promise((resolve, reject) => {
          modem.dial(
            {
              path: `/distribution/${ref}/json`,
              method: 'GET',
              abortSignal,
              ...(auth ? { authconfig: { ...auth } } : {}),
              statusCodes: { 200: true, 401: 'unauthorized', 403: 'forbidden', 404: 'not found', 500: 'server error' },
            },
            (err, data) => (err ? reject(err) : resolve(data as { Descriptor?: { digest?: string } })),
          );
        }),
      { timeoutMs },
    );
  }
}

/** The engine at DOCKER_HOST (unix://, tcp://, http(s)://) or the default socket. */
export function createEngine(config: EngineConfig): Engine {
  return new DockerodeEngine(
    dockerFor(config.connection ?? connectionFromHost(config.dockerHost)),
    config.engineTimeoutMs,
    config.engineSlowTimeoutMs,
  );
}
