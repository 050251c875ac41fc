import { randomBytes } from 'node:crypto';
import type { Uses } from '../../context';
import type { PolicyFeature } from '@berth/contract';
import type { ByteStream, ContainerHostConfig, ContainerSpec } from '../../docker/engine';
import { ConflictError, NotFoundError } from '../../errors';
import { containerFeatures } from '../policy/container-features';
import type { Actor, PolicyGate } from '../policy/policy';
import { pullImage } from '../images/images-update';
import { findSelfContainer } from '../self-update/self-container';
import { execCollect } from '../terminal/exec';

/** Label on every helper container: what it is for (`files`, `backup`, ...). */
export const HELPER_LABEL = 'berth.helper';
/** Where a helper sees the volume it was made for. */
export const HELPER_MOUNT = '/volume';
/** A helper left behind (Berth stopped while one worked) is removed once older than this. */
const STALE_MS = 6 * 3600_000;
/** How long a running helper stays up at most (it is removed as soon as its work ends). */
const RUNNING_SECONDS = 24 * 3600;

export interface HelperSpec {
  /** The volume, mounted at HELPER_MOUNT. */
  volume: string;
  /** Mounted read-only: the engine refuses any write into it (what a viewer or a backup gets). */
  readOnly: boolean;
  /** What it is for, on its label and in its name. */
  purpose: string;
  /**
   * Started (sleeping, so commands can be run in it with `exec`); otherwise only created, which
   * is enough for the engine's archive API (get and put a tar of any path, volume included).
   */
  running?: boolean;
}

/** One helper container; `release` removes it (safe to call more than once). */
export interface Helper {
  id: string;
  /** A command run to its end inside the helper (it must be `running`). */
  exec(cmd: string[], timeoutMs: number): Promise<{ code: number | null; output: string }>;
  release(): Promise<void>;
}

/**
 * Short-lived containers with one volume mounted, so Berth reads and writes a volume's files
 * through the engine (on any environment, without the host's paths). Made from HELPER_IMAGE, or
 * Berth's own image on the engine it runs beside; no network; removed when their work ends.
 * Making one passes the operator policy like any container (a volume bound to a host path counts
 * as that bind).
 */
export class HelperContainers {
  private swept = false;

  constructor(
    private readonly ctx: Uses<'docker' | 'log', 'helperImage' | 'containerName' | 'hostname'>,
    private readonly policy: PolicyGate,
    /** The engine Berth runs beside (its own image is there). */
    private readonly local: boolean,
  ) {}

  /** The image helpers are made from; a clear 409 when none is known for this engine. */
  async image(): Promise<string> {
    if (this.ctx.config.helperImage) return this.ctx.config.helperImage;
    if (this.local) {
      const self = await findSelfContainer(this.ctx.docker, {
        containerName: this.ctx.config.containerName,
        hostname: this.ctx.config.hostname,
      });
      if (self.container) return self.container.Image;
    }
    throw new ConflictError(
      this.local
        ? 'Set HELPER_IMAGE (busybox or alpine will do) to reach volumes: Berth does not run in a container, so it has no image of its own to use.'
        : "Set HELPER_IMAGE (busybox or alpine will do) to reach this environment's volumes: Berth's own image is not on that engine.",
    );
  }

  /** What making a helper for `volume` means to the policy: its mount (a named volume), and the host path a bound volume names. */
  async features(volume: string, readOnly: boolean): Promise<PolicyFeature[]> {
    const device = (await this.ctx.docker.inspectVolume(volume)).Options?.device;
    const out = containerFeatures(this.hostConfig(volume, readOnly));
    if (device?.startsWith('/')) out.push({ rule: 'bind_mounts', value: device, field: `volume ${volume} (device)` });
    return out;
  }

  async open(actor: Actor, spec: HelperSpec): Promise<Helper> {
    // Berth's own volumes (its database and keys) are refused there, like on every path that mounts one.
    await this.policy.check(actor, await this.features(spec.volume, spec.readOnly));
    if (!this.swept) {
      this.swept = true;
      void this.sweep();
    }
    const image = await this.image();
    const create: ContainerSpec = {
      Image: image,
      User: '0',
      Entrypoint: spec.running ? ['sleep'] : ['true'],
      Cmd: spec.running ? [String(RUNNING_SECONDS)] : [],
      Labels: { [HELPER_LABEL]: spec.purpose },
      NetworkDisabled: true,
      HostConfig: { ...this.hostConfig(spec.volume, spec.readOnly), NetworkMode: 'none', AutoRemove: false },
    };
    const name = `berth-helper-${spec.purpose}-${randomBytes(4).toString('hex')}`;
    const id = await this.create(name, create, image);
    const docker = this.ctx.docker;
    let released = false;
    const release = async () => {
      if (released) return;
      released = true;
      await docker.removeContainer(id, { force: true, volumes: false }).catch((err: unknown) => {
        if (!(err instanceof NotFoundError)) this.ctx.log.warn({ err, helper: name }, 'could not remove a helper');
      });
    };
    try {
      if (spec.running) await docker.startContainer(id);
    } catch (err) {
      await release();
      throw err;
    }
    return { id, release, exec: (cmd, timeoutMs) => execCollect(docker, id, cmd, timeoutMs) };
  }

  /** Runs `fn` with a helper and removes the helper after, whatever happened. */
  async use<T>(actor: Actor, spec: HelperSpec, fn: (helper: Helper) => Promise<T>): Promise<T> {
    const helper = await this.open(actor, spec);
    try {
      return await fn(helper);
    } finally {
      await helper.release();
    }
  }

  private hostConfig(volume: string, readOnly: boolean): ContainerHostConfig {
    return { Mounts: [{ Type: 'volume', Source: volume, Target: HELPER_MOUNT, ReadOnly: readOnly }] };
  }

  /** Creates the helper, pulling its image once when the engine lacks it. */
  private async create(name: string, spec: ContainerSpec, image: string): Promise<string> {
    try {
      return await this.ctx.docker.createContainer(name, spec);
    } catch (err) {
      if (!(err instanceof NotFoundError)) throw err;
      await pullImage(this.ctx.docker, image);
      return this.ctx.docker.createContainer(name, spec);
    }
  }

  /** Removes helpers left over by an earlier run (older than STALE_MS). */
  private async sweep(): Promise<void> {
    try {
      const list = await this.ctx.docker.listContainers({ all: true, filters: { label: [HELPER_LABEL] } });
      const old = list.filter((c) => c.Created * 1000 < Date.now() - STALE_MS);
      for (const c of old) await this.ctx.docker.removeContainer(c.Id, { force: true, volumes: false });
    } catch (err) {
      this.ctx.log.warn({ err }, 'could not sweep old helper containers');
    }
  }
}

/** `stream` that removes `helper` once it ended, failed or was destroyed (a download's engine stream). */
export function releasing(stream: ByteStream, helper: Helper): ByteStream {
  let done = false;
  const end = () => {
    if (done) return;
    done = true;
    void helper.release();
  };
  stream.on('end', end);
  stream.on('error', end);
  stream.on('close', end);
  const destroy = stream.destroy?.bind(stream);
  if (destroy)
    stream.destroy = (err?: Error) => {
      destroy(err);
      end();
    };
  return stream;
}
