import type { FileContent, FileEntry, FileListing } from '@berth/contract';
import type { Uses } from '../../context';
import type { ByteStream } from '../../docker/engine';
import type { Actor, PolicyGate } from '../policy/policy';
import { HELPER_MOUNT, releasing, type HelperContainers } from '../volumes/helper-container';
import { checkViewerReads } from './access';
import { FileTree } from './file-tree';

/**
 * The files of a volume, through a short-lived helper container with the volume mounted (read-only
 * for every read, so a viewer's listing cannot change it): the same file tree as an app's, rooted
 * where the helper sees the volume. Writes need an operator and pass the policy like the helper's
 * creation does (a volume bound to a host path counts as that bind; Berth's own volumes are an admin's).
 */
export class VolumeFilesService {
  constructor(
    private readonly ctx: Uses<'docker'>,
    private readonly helpers: HelperContainers,
    private readonly policy: PolicyGate,
  ) {}

  private async reading<T>(actor: Actor, volume: string, path: string, fn: (tree: FileTree) => Promise<T>): Promise<T> {
    await this.readable(actor, volume, path);
    return this.helpers.use(actor, { volume, readOnly: true, purpose: 'files' }, (h) => fn(this.tree(h.id, volume)));
  }

  private writing<T>(actor: Actor, volume: string, fn: (tree: FileTree) => Promise<T>, running = false): Promise<T> {
    return this.helpers.use(actor, { volume, readOnly: false, purpose: 'files', running }, (h) =>
      fn(this.tree(h.id, volume)),
    );
  }

  private readable(actor: Actor, volume: string, path: string): Promise<void> {
    return checkViewerReads(this.policy, actor, path, () => this.ctx.docker.inspectVolume(volume));
  }

  private tree(id: string, volume: string): FileTree {
    return new FileTree(this.ctx.docker, id, HELPER_MOUNT, volume);
  }

  list(actor: Actor, volume: string, path: string): Promise<FileListing> {
    return this.reading(actor, volume, path, (t) => t.list(path));
  }

  /** The helper stays while the tar streams and goes once it ended (or the client left). */
  async download(
    actor: Actor,
    volume: string,
    path: string,
    signal?: AbortSignal,
  ): Promise<{ filename: string; stream: ByteStream }> {
    await this.readable(actor, volume, path);
    const helper = await this.helpers.open(actor, { volume, readOnly: true, purpose: 'files' });
    try {
      const { filename, stream } = await this.tree(helper.id, volume).download(path, signal);
      return { filename, stream: releasing(stream, helper) };
    } catch (err) {
      await helper.release();
      throw err;
    }
  }

  read(actor: Actor, volume: string, path: string): Promise<FileContent> {
    return this.reading(actor, volume, path, (t) => t.read(path));
  }

  write(actor: Actor, volume: string, path: string, content: string): Promise<FileContent> {
    return this.writing(actor, volume, (t) => t.write(path, content));
  }

  upload(
    actor: Actor,
    volume: string,
    dir: string,
    fileName: string,
    body: NodeJS.ReadableStream,
    size: number,
    signal?: AbortSignal,
  ): Promise<FileEntry> {
    return this.writing(actor, volume, (t) => t.upload(dir, fileName, body, size, signal));
  }

  mkdir(actor: Actor, volume: string, path: string): Promise<FileEntry> {
    return this.writing(actor, volume, (t) => t.mkdir(path));
  }

  /** `rm` runs in the helper, so this one is started. */
  remove(actor: Actor, volume: string, path: string): Promise<{ deleted: string }> {
    return this.writing(actor, volume, (t) => t.remove(path), true);
  }
}
