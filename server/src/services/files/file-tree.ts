import { posix } from 'node:path';
import { FILE_CONTENT_MAX_BYTES, type FileContent, type FileEntry, type FileListing } from '@berth/contract';
import type { ByteStream, Engine } from '../../docker/engine';
import { ConflictError, NotFoundError, PayloadTooLargeError, ValidationError } from '../../errors';
import { execCollect } from '../terminal/exec';
import { entryOf, packOne, packStream, readAll, readArchive, type TarHeader } from './tar';

/** Symlinks followed in a row before a path counts as a loop. */
const MAX_LINKS = 8;
/** What one upload may hold. */
export const UPLOAD_MAX_BYTES = 2 * 1024 * 1024 * 1024;
const DELETE_TIMEOUT_MS = 60_000;

export const clean = (path: string) => posix.normalize(path).replace(/(.)\/+$/, '$1');

/**
 * The files of one container seen from `root` (an app's container: `/`; a volume helper: where
 * the volume is mounted), through the engine's archive API (no shell needed, running or not).
 * Paths in and out are the tree's own (`/etc`); a symlink is followed inside the tree (an absolute
 * target starts at its root, `..` stops there). Only `remove` runs a command (`rm`, as root): the
 * container must be running for it.
 */
export class FileTree {
  constructor(
    private readonly docker: Engine,
    private readonly id: string,
    private readonly root = '',
    /** What a download of `/` is called. */
    private readonly rootName = 'root',
  ) {}

  private real(path: string): string {
    return this.root && path === '/' ? this.root : this.root + path;
  }

  /** A folder's entries; a symlink to a folder is followed. */
  async list(path: string): Promise<FileListing> {
    let at = clean(path);
    for (let hops = 0; hops <= MAX_LINKS; hops++) {
      const entries: FileEntry[] = [];
      let root: TarHeader | null = null;
      await readArchive(await this.archive(at), (h, relative) => {
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
  async download(path: string, signal?: AbortSignal): Promise<{ filename: string; stream: ByteStream }> {
    const base = posix.basename(clean(path)) || this.rootName;
    return { filename: `${base}.tar`, stream: await this.archive(clean(path), signal) };
  }

  async read(path: string): Promise<FileContent> {
    const at = await this.resolveFile(clean(path));
    let result: FileContent | null = null;
    await readArchive(await this.archive(at), async (h, relative, body) => {
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
  async write(path: string, content: string): Promise<FileContent> {
    const at = clean(path);
    const old = await this.stat(at);
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
    await this.docker.containers.putArchive(this.id, this.real(posix.dirname(at)), await packOne(header, data));
    return { ...entryOf(header, at), content };
  }

  /** Streams one file into the folder `dir` (never held whole here: the tar entry is fed as the body arrives). */
  async upload(
    dir: string,
    fileName: string,
    body: NodeJS.ReadableStream,
    size: number,
    signal?: AbortSignal,
  ): Promise<FileEntry> {
    if (size > UPLOAD_MAX_BYTES) throw new PayloadTooLargeError(`An upload is at most ${UPLOAD_MAX_BYTES} bytes.`);
    const at = clean(dir);
    const header = { name: fileName, type: 'file' as const, size, mode: 0o644, mtime: new Date() };
    const { pack, done } = await packStream(header, body);
    await Promise.all([this.docker.containers.putArchive(this.id, this.real(at), pack, signal), done]);
    return entryOf(header, posix.join(at, fileName));
  }

  async mkdir(path: string): Promise<FileEntry> {
    const at = clean(path);
    if (at === '/') throw new ValidationError('/ exists already.');
    if (await this.stat(at)) throw new ConflictError(`${path} exists already.`);
    const header: TarHeader = { name: posix.basename(at), type: 'directory', mode: 0o755, mtime: new Date() };
    await this.docker.containers.putArchive(this.id, this.real(posix.dirname(at)), await packOne(header));
    return entryOf(header, at);
  }

  /** Deletes with `rm -rf` (the engine's API has no delete): the container must be running. */
  async remove(path: string): Promise<{ deleted: string }> {
    const at = clean(path);
    if (at === '/') throw new ValidationError('The root folder cannot be deleted.');
    if (!(await this.stat(at))) throw new NotFoundError('path', path);
    const { code, output } = await execCollect(
      this.docker,
      this.id,
      ['rm', '-rf', '--', this.real(at)],
      DELETE_TIMEOUT_MS,
    );
    if (code !== 0) throw new ConflictError(`Could not delete ${path}: ${output.trim() || `rm exited with ${code}`}`);
    return { deleted: at };
  }

  private archive(path: string, signal?: AbortSignal): Promise<ByteStream> {
    return this.docker.containers.getArchive(this.id, this.real(path), signal);
  }

  /** The header of `path` itself (not following a symlink); null when there is nothing there. */
  private async stat(path: string): Promise<TarHeader | null> {
    let header: TarHeader | null = null;
    try {
      await readArchive(await this.archive(path), (h) => {
        header = h;
        return false;
      });
    } catch (err) {
      if (err instanceof NotFoundError) return null;
      throw err;
    }
    return header;
  }

  /** Follows symlinks to what they name (paths inside the tree). */
  private async resolveFile(path: string): Promise<string> {
    let at = path;
    for (let hops = 0; hops <= MAX_LINKS; hops++) {
      const h = await this.stat(at);
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
