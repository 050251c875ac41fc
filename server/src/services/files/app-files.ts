import type { FileContent, FileEntry, FileListing } from '@berth/contract';
import type { Uses } from '../../context';
import type { ByteStream, ContainerDetail } from '../../docker/engine';
import { bareName } from '../../docker/names';
import { ConflictError, PolicyDeniedError } from '../../errors';
import type { AppsService } from '../apps/apps';
import { containerFeatures } from '../policy/container-features';
import type { Actor, PolicyGate } from '../policy/policy';
import { checkViewerReads } from './access';
import { FileTree } from './file-tree';

export { UPLOAD_MAX_BYTES } from './file-tree';

/**
 * The files of a container, running or not, through the engine's archive API (no shell needed):
 * list, read, write, upload, make folders; deleting needs the container running (the engine has
 * no delete, so `rm` runs in it). Viewers read only where the policy lets them (viewer_files).
 */
export class AppFilesService {
  constructor(
    private readonly ctx: Uses<'docker', 'containerName' | 'hostname'>,
    private readonly apps: AppsService,
    private readonly policy: PolicyGate,
  ) {}

  private async readable(actor: Actor, name: string, path: string): Promise<FileTree> {
    const info = await this.apps.inspect(name);
    await checkViewerReads(this.policy, actor, path);
    await this.notBerth(actor, info);
    return new FileTree(this.ctx.docker, info.Id);
  }

  /** Berth's own container holds its database, keys and secrets (DATA_DIR): only an admin reaches its files. */
  private async notBerth(actor: Actor, info: ContainerDetail): Promise<void> {
    if (actor.role === 'admin') return;
    if (await this.policy.isBerth(info.Id))
      throw new PolicyDeniedError(`${bareName(info.Name)} is Berth itself: only an admin may reach its files.`, [
        { field: 'name', rule: 'bind_mounts', message: "Berth's own container" },
      ]);
  }

  /**
   * A write reaches the host through a bind mount, and a symlink inside the container can lead
   * into one: a non-admin writes only into a container whose every bind mount the policy would
   * let them make (403 policy_denied naming the bind otherwise). Reads stay open to them.
   */
  private async writable(name: string, actor: Actor): Promise<{ info: ContainerDetail; tree: FileTree }> {
    const info = await this.apps.inspect(name);
    await this.notBerth(actor, info);
    const binds = containerFeatures(info.HostConfig).filter((f) => f.rule === 'bind_mounts');
    const refused = await this.policy.violations(actor, binds);
    if (refused.length)
      throw new PolicyDeniedError(
        `Writing files into ${bareName(info.Name)} is refused: it mounts host paths you may not write to. ` +
          refused.map((v) => v.message).join(' '),
        refused.map((v) => ({ field: v.field, rule: v.rule, message: v.message })),
      );
    return { info, tree: new FileTree(this.ctx.docker, info.Id) };
  }

  async list(actor: Actor, name: string, path: string): Promise<FileListing> {
    return (await this.readable(actor, name, path)).list(path);
  }

  async download(
    actor: Actor,
    name: string,
    path: string,
    signal?: AbortSignal,
  ): Promise<{ filename: string; stream: ByteStream }> {
    return (await this.readable(actor, name, path)).download(path, signal);
  }

  async read(actor: Actor, name: string, path: string): Promise<FileContent> {
    return (await this.readable(actor, name, path)).read(path);
  }

  async write(actor: Actor, name: string, path: string, content: string): Promise<FileContent> {
    return (await this.writable(name, actor)).tree.write(path, content);
  }

  async upload(
    actor: Actor,
    name: string,
    dir: string,
    fileName: string,
    body: NodeJS.ReadableStream,
    size: number,
    signal?: AbortSignal,
  ): Promise<FileEntry> {
    return (await this.writable(name, actor)).tree.upload(dir, fileName, body, size, signal);
  }

  async mkdir(actor: Actor, name: string, path: string): Promise<FileEntry> {
    return (await this.writable(name, actor)).tree.mkdir(path);
  }

  async remove(actor: Actor, name: string, path: string): Promise<{ deleted: string }> {
    const { info, tree } = await this.writable(name, actor);
    if (!info.State.Running)
      throw new ConflictError(
        `${bareName(info.Name)} is not running: start it to delete files (the engine deletes nothing otherwise).`,
      );
    return tree.remove(path);
  }
}
