import type Docker from 'dockerode';
import { ConflictError, EngineError, ForbiddenError, NotFoundError, ValidationError } from '../errors';
import type { ByteStream } from './engine';
import type { Target } from './engine-errors';
import type { Caller } from './swarm-engine';

/** The engine's container update body (`docker update`): only the fields Berth changes. */
export interface ContainerUpdate {
  NanoCpus?: number;
  Memory?: number;
  MemorySwap?: number;
  CpuShares?: number;
  PidsLimit?: number;
  RestartPolicy?: { Name: string; MaximumRetryCount?: number };
}

export interface CommitOptions {
  repo: string;
  tag: string;
  comment: string;
}

/** Changes to an existing container that keep it (same id, same writable layer), and its files. */
export interface ContainerChanges {
  /**
   * Limits and restart policy, applied live. A value the engine refuses (memory below what the
   * container uses, memory above its swap limit…) is a ConflictError with the engine's words; the
   * engine then keeps the container's previous settings.
   */
  update(ref: string, update: ContainerUpdate): Promise<void>;
  /** An image of the container as it is now (paused meanwhile, as `docker commit` does); answers its id. */
  commit(ref: string, opts: CommitOptions): Promise<string>;
  disconnectNetwork(network: string, containerId: string, force: boolean): Promise<void>;
  /**
   * A tar of `path` in the container (a file, a folder with everything under it, or a symlink
   * itself), running or not. A missing path is a NotFoundError naming it.
   */
  getArchive(containerId: string, path: string, signal?: AbortSignal): Promise<ByteStream>;
  /**
   * Extracts a tar into the folder `dir` of the container, running or not (streamed through).
   * A missing folder is a NotFoundError; a read-only one a ForbiddenError; a path that is not a
   * folder a ValidationError.
   */
  putArchive(containerId: string, dir: string, tar: NodeJS.ReadableStream, signal?: AbortSignal): Promise<void>;
}

/** The archive API's failures, told about the path (the container itself was looked up before). */
function archiveFailure(err: unknown, path: string): unknown {
  if (!(err instanceof EngineError)) return err;
  if (err.statusCode === 404) return new NotFoundError('path', path);
  if (err.statusCode === 403) return new ForbiddenError(`${path} is read-only in this container.`);
  if (err.statusCode === 400) return new ValidationError(`${path}: ${err.message}`);
  return err;
}

const UPLOAD_TIMEOUT_MS = 60 * 60_000;

const container = (ref: string, doing: string): Target => ({
  kind: 'container',
  ref,
  doing: `${doing} container ${ref}`,
});

export class DockerodeContainerChanges implements ContainerChanges {
  constructor(
    private readonly docker: Docker,
    private readonly call: Caller,
  ) {}

  async update(ref: string, update: ContainerUpdate): Promise<void> {
    try {
      await this.call(container(ref, 'updating'), (abortSignal) =>
        this.docker.getContainer(ref).update({ ...update, abortSignal }),
      );
    } catch (err) {
      // The engine answers a refused value with 400 or 500 ("Cannot update container: ... unable to set memory limit").
      if (err instanceof EngineError && (err.statusCode === 400 || err.statusCode === 500))
        throw new ConflictError(`The engine refused the change: ${err.message}`);
      throw err;
    }
  }

  async commit(ref: string, opts: CommitOptions): Promise<string> {
    const answer = (await this.call(
      container(ref, 'committing'),
      (abortSignal) =>
        this.docker.getContainer(ref).commit({ ...opts, pause: true, abortSignal }) as Promise<{ Id: string }>,
      { slow: true },
    )) as { Id: string };
    return answer.Id;
  }

  async disconnectNetwork(network: string, containerId: string, force: boolean): Promise<void> {
    await this.call(
      { kind: 'network', ref: network, doing: `disconnecting a container from network ${network}` },
      (abortSignal) =>
        this.docker
          .getNetwork(network)
          .disconnect({ Container: containerId, Force: force, abortSignal }) as Promise<unknown>,
    );
  }

  async getArchive(containerId: string, path: string, signal?: AbortSignal): Promise<ByteStream> {
    try {
      return await this.call(
        { kind: 'container', doing: `reading ${path} of container ${containerId}` },
        (abortSignal) => this.docker.getContainer(containerId).getArchive({ path, abortSignal }) as Promise<ByteStream>,
        { signal },
      );
    } catch (err) {
      throw archiveFailure(err, path);
    }
  }

  async putArchive(containerId: string, dir: string, tar: NodeJS.ReadableStream, signal?: AbortSignal): Promise<void> {
    try {
      await this.call(
        { kind: 'container', doing: `writing into ${dir} of container ${containerId}` },
        (abortSignal) => this.docker.getContainer(containerId).putArchive(tar, { path: dir, abortSignal }),
        // The whole upload passes within the call: it ends with the client (signal), not a quick timeout.
        { signal, timeoutMs: UPLOAD_TIMEOUT_MS },
      );
    } catch (err) {
      throw archiveFailure(err, dir);
    }
  }
}
