import { posix } from 'node:path';
import { FILE_CONTENT_MAX_BYTES, type FileContent, type FileEntry, type FileListing } from '@berth/contract';
import type { Uses } from '../../context';
import type { ByteStream, ContainerDetail } from '../../docker/engine';
import { bareName } from '../../docker/names';
import { ConflictError, NotFoundError, PayloadTooLargeError, PolicyDeniedError, ValidationError } from '../../errors';
import type { AppsService } from '../apps/apps';
import { containerFeatures } from '../policy/container-features';
import { execCollect } from '../terminal/exec';
import type { Actor, PolicyGate } from '../policy/policy';
import { entryOf, packOne, packStream, readAll, readArchive, type TarHeader } from './tar';

/** Symlinks followed in a row before a path counts as a loop. */
const MAX_LINKS = 8;
/** What one upload may hold. */
export const UPLOAD_MAX_BYTES = 2 * 1024 * 1024 * 1024;
const DELETE_TIMEOUT_MS = 60_000;

const clean = (path: string) => posix.normalize(path).replace(/(.)\/+$/, '$1');

/**
 * The files of a container, running or not, through the engine's archive API (no shell needed):
 * list, read, write, upload, make folders; deleting needs the container running (the engine has
 * no delete, so `rm` runs in it).
 */
export class AppFilesService {
  constructor(
    private readonly ctx: Uses<'docker'>,
    private readonly apps: AppsService,
    private readonly policy: PolicyGate,
  ) {}

  /**
   * A write reaches the host through a bind mount, and a symlink inside the container can lead
   * into one: a non-admin writes only into a container whose every bind mount the policy would
   * let them make (403 policy_denied naming the bind otherwise). Reads stay open to them.
   */
  private async writable(name: string, actor: Actor): Promise<ContainerDetail> {
    const info = await this.apps.inspect(name);
    const binds = containerFeatures(info.HostConfig).filter((f) => f.rule === 'bind_mounts');
    const refused = this.policy.violations(actor, binds);
    if (refused.length)
      throw new PolicyDeniedError(
        `Writing files into ${bareName(info.Name)} is refused: it mounts host paths you may not write to. ` +
          refused.map((v) => v.message).join(' '),
        refused.map((v) => ({ field: v.field, rule: v.rule, message: v.message })),
      );
    return info;
  }

  /** A folder's entries; a symlink to a folder is followed (inside the container: paths are the container's own). */
  async list(name: string, path: string): Promise<FileListing> {
    const id = (await this.apps.inspect(name)).Id;
    let at = clean(path);
    for (let hops = 0; hops <= MAX_LINKS; hops++) {
      const entries: FileEntry[] = [];
      let root: TarHeader | null = null;
      await readArchive(await this.archive(id, at), (h, relative) => {
        if (relative === '') {
          root = h;
          return h.type === 'directory';
        }
        if (!relative.includes('/')) entries.push(entryOf(h, posix.join(at, relative)));
      });
      const found = root as TarHeader | null;
      if (!found) throw new NotFoundError('path', path);
      if (found.type === 'symlink') {
        at = clean(posix.resolve(posix.dirname(at), found.linkname ?? ''));
        continue;
      }
      if (found.type !== 'directory')
        throw new ValidationError(`${path} is a file, not a folder: open or download it.`);
      entries.sort((a, b) => a.name.localeCompare(b.name));
      return { path: at, entries };
    }
    throw new ValidationError(`${path}: more than ${MAX_LINKS} symlinks in a row.`);
  }

  /** A file or folder as the engine's tar stream, with a name for the download. */
  async download(name: string, path: string, signal?: AbortSignal): Promise<{ filename: string; stream: ByteStream }> {
    const id = (await this.apps.inspect(name)).Id;
    const base = posix.basename(clean(path)) || 'root';
    return { filename: `${base}.tar`, stream: await this.archive(id, clean(path), signal) };
  }

  async read(name: string, path: string): Promise<FileContent> {
    const id = (await this.apps.inspect(name)).Id;
    const at = await this.resolveFile(id, clean(path));
    let result: FileContent | null = null;
    await readArchive(await this.archive(id, at), async (h, relative, body) => {
      if (relative !== '') return false;
      if (h.type === 'directory') throw new ValidationError(`${path} is a folder: list it instead.`);
      if ((h.size ?? 0) > FILE_CONTENT_MAX_BYTES)
        throw new PayloadTooLargeError(`${path} is larger than 1 MiB: download it instead.`);
      const data = await readAll(body, FILE_CONTENT_MAX_BYTES);
      if (!data) throw new PayloadTooLargeError(`${path} is larger than 1 MiB: download it instead.`);
      result = { ...entryOf(h, at), content: textOf(data, path) };
      return false;
    });
    if (!result) throw new NotFoundError('path', path);
    return result;
  }

  /** Writes a text file; an existing one keeps its mode and owner, a new one is 0644 root's. */
  async write(actor: Actor, name: string, path: string, content: string): Promise<FileContent> {
    const id = (await this.writable(name, actor)).Id;
    const at = clean(path);
    const old = await this.stat(id, at);
    if (old?.type === 'directory') throw new ValidationError(`${path} is a folder.`);
    const data = Buffer.from(content, 'utf8');
    const header: TarHeader = {
      name: posix.basename(at),
      type: 'file',
      size: data.length,
      mode: old?.mode ?? 0o644,
      uid: old?.uid ?? 0,
      gid: old?.gid ?? 0,
      uname: old?.uname,
      gname: old?.gname,
      mtime: new Date(),
    };
    await this.ctx.docker.containers.putArchive(id, posix.dirname(at), packOne(header, data));
    return { ...entryOf(header, at), content };
  }

  /** Streams one file into the folder `dir` (never held whole here: the tar entry is fed as the body arrives). */
  async upload(
    actor: Actor,
    name: string,
    dir: string,
    fileName: string,
    body: NodeJS.ReadableStream,
    size: number,
    signal?: AbortSignal,
  ): Promise<FileEntry> {
    if (size > UPLOAD_MAX_BYTES) throw new PayloadTooLargeError(`An upload is at most ${UPLOAD_MAX_BYTES} bytes.`);
    const id = (await this.writable(name, actor)).Id;
    const at = clean(dir);
    const header = { name: fileName, type: 'file' as const, size, mode: 0o644, mtime: new Date() };
    const { pack, done } = packStream(header, body);
    await Promise.all([this.ctx.docker.containers.putArchive(id, at, pack, signal), done]);
    return entryOf(header, posix.join(at, fileName));
  }

  async mkdir(actor: Actor, name: string, path: string): Promise<FileEntry> {
    const id = (await this.writable(name, actor)).Id;
    const at = clean(path);
    if (at === '/') throw new ValidationError('/ exists already.');
    if (await this.stat(id, at)) throw new ConflictError(`${path} exists already.`);
    const header: TarHeader = { name: posix.basename(at), type: 'directory', mode: 0o755, mtime: new Date() };
    await this.ctx.docker.containers.putArchive(id, posix.dirname(at), packOne(header));
    return entryOf(header, at);
  }

  /** Deletes with `rm -rf` in the running container (as root): the engine's API has no delete. */
  async remove(actor: Actor, name: string, path: string): Promise<{ deleted: string }> {
    const info = await this.writable(name, actor);
    const at = clean(path);
    if (at === '/') throw new ValidationError('The root folder cannot be deleted.');
    if (!info.State.Running)
      throw new ConflictError(
        `${bareName(info.Name)} is not running: start it to delete files (the engine deletes nothing otherwise).`,
      );
    if (!(await this.stat(info.Id, at))) throw new NotFoundError('path', path);
    const { code, output } = await execCollect(this.ctx.docker, info.Id, ['rm', '-rf', '--', at], DELETE_TIMEOUT_MS);
    if (code !== 0) throw new ConflictError(`Could not delete ${path}: ${output.trim() || `rm exited with ${code}`}`);
    return { deleted: at };
  }

  private archive(id: string, path: string, signal?: AbortSignal): Promise<ByteStream> {
    return this.ctx.docker.containers.getArchive(id, path, signal);
  }

  /** The header of `path` itself (not following a symlink); null when there is nothing there. */
  private async stat(id: string, path: string): Promise<TarHeader | null> {
    let header: TarHeader | null = null;
    try {
      await readArchive(await this.archive(id, path), (h) => {
        header = h;
        return false;
      });
    } catch (err) {
      if (err instanceof NotFoundError) return null;
      throw err;
    }
    return header;
  }

  /** Follows symlinks to what they name (paths inside the container). */
  private async resolveFile(id: string, path: string): Promise<string> {
    let at = path;
    for (let hops = 0; hops <= MAX_LINKS; hops++) {
      const h = await this.stat(id, at);
      if (!h) throw new NotFoundError('path', path);
      if (h.type !== 'symlink') return at;
      at = clean(posix.resolve(posix.dirname(at), h.linkname ?? ''));
    }
    throw new ValidationError(`${path}: more than ${MAX_LINKS} symlinks in a row.`);
  }
}

/** The text of a file, or a clear refusal for a binary one (a NUL byte, or not UTF-8). */
function textOf(data: Buffer, path: string): string {
  const binary = () => new ValidationError(`${path} is a binary file: download it instead of opening it.`);
  if (data.includes(0)) throw binary();
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(data);
  } catch {
    throw binary();
  }
}
