import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ConnectConfig, SFTPWrapper } from 'ssh2';
import { hostKeyLine } from '../../docker/connection';
import { ValidationError } from '../../errors';

/** Where archives are written and read back: one folder, by file name. */
export interface ArchiveStore {
  put(name: string, data: Readable): Promise<void>;
  get(name: string): Promise<Readable>;
  remove(name: string): Promise<void>;
  /** Writes and removes a small file: the destination is reachable and writable. */
  check(): Promise<void>;
}

export interface FolderConfig {
  path: string;
}
export interface SftpConfig {
  host: string;
  port: number;
  username: string;
  path: string;
  host_key: string;
}
export interface SftpSecret {
  password?: string;
  private_key?: string;
}

export const safeArchiveName = (name: string) => {
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(name)) throw new ValidationError(`Not an archive name: ${name}`);
  return name;
};

/** A folder on Berth's host. Written as `<name>.partial`, renamed once complete. */
export function folderStore(cfg: FolderConfig): ArchiveStore {
  const at = (name: string) => path.join(cfg.path, safeArchiveName(name));
  return {
    async put(name, data) {
      await fs.promises.mkdir(cfg.path, { recursive: true, mode: 0o700 });
      const partial = `${at(name)}.partial`;
      try {
        await pipeline(data, fs.createWriteStream(partial, { mode: 0o600 }));
        await fs.promises.rename(partial, at(name));
      } catch (err) {
        await fs.promises.rm(partial, { force: true });
        throw err;
      }
    },
    async get(name) {
      await fs.promises.access(at(name));
      return fs.createReadStream(at(name));
    },
    async remove(name) {
      await fs.promises.rm(at(name), { force: true });
    },
    async check() {
      await this.put('berth-check.tmp', (await import('node:stream')).Readable.from([Buffer.from('ok')]));
      await this.remove('berth-check.tmp');
    },
  };
}

const words = (line: string) => line.trim().split(/\s+/).slice(0, 2).join(' ');

/** One SFTP session for `fn`: the server's host key must be the pinned one; closed afterwards. */
async function withSftp<T>(cfg: SftpConfig, secret: SftpSecret, fn: (sftp: SFTPWrapper) => Promise<T>): Promise<T> {
  // Loaded on first use: ssh2 is ~25 modules few installs need (SFTP backups).
  const { Client } = await import('ssh2');
  const client = new Client();
  let seenKey = '';
  const opts: ConnectConfig = {
    host: cfg.host,
    port: cfg.port,
    username: cfg.username,
    readyTimeout: 20_000,
    agent: undefined,
    tryKeyboard: false,
    hostVerifier: (blob: Buffer) => {
      seenKey = hostKeyLine(blob);
      return seenKey === words(cfg.host_key);
    },
    ...(secret.private_key ? { privateKey: secret.private_key } : {}),
    ...(secret.password ? { password: secret.password } : {}),
  };
  const sftp = await new Promise<SFTPWrapper>((resolve, reject) => {
    client.once('ready', () => client.sftp((err, s) => (err ? reject(err) : resolve(s))));
    client.once('error', (err) =>
      reject(
        seenKey && seenKey !== words(cfg.host_key)
          ? new ValidationError(`SFTP ${cfg.host}:${cfg.port} showed another host key than the pinned one: ${seenKey}`)
          : new ValidationError(`SFTP ${cfg.host}:${cfg.port}: ${err.message}`),
      ),
    );
    client.connect(opts);
  });
  try {
    return await fn(sftp);
  } finally {
    client.end();
  }
}

const call = <T>(f: (cb: (err: Error | null | undefined, v?: T) => void) => void) =>
  new Promise<T>((resolve, reject) => f((err, v) => (err ? reject(err) : resolve(v as T))));

/** Makes `dir` and its parents on the server (existing ones are fine). */
async function mkdirs(sftp: SFTPWrapper, dir: string): Promise<void> {
  let at = '';
  for (const part of dir.split('/').filter(Boolean)) {
    at += `/${part}`;
    await call<void>((cb) => sftp.mkdir(at, { mode: 0o700 }, cb)).catch(() => undefined);
  }
}

/** A folder on an SFTP server (host key pinned, password or key). */
export function sftpStore(cfg: SftpConfig, secret: SftpSecret): ArchiveStore {
  const at = (name: string) => path.posix.join(cfg.path, safeArchiveName(name));
  return {
    put: (name, data) =>
      withSftp(cfg, secret, async (sftp) => {
        await mkdirs(sftp, cfg.path);
        const partial = `${at(name)}.partial`;
        await pipeline(data, sftp.createWriteStream(partial, { mode: 0o600 }));
        await call<void>((cb) => sftp.rename(partial, at(name), cb));
      }),
    async get(name) {
      // The session stays open while the archive is read, and closes with the stream.
      const client = await new Promise<{ sftp: SFTPWrapper; end: () => void }>((resolve, reject) => {
        withSftp(cfg, secret, (sftp) => new Promise<void>((done) => resolve({ sftp, end: done }))).catch(reject);
      });
      await call((cb) => client.sftp.stat(at(name), cb)).catch((err: Error) => {
        client.end();
        throw new ValidationError(`SFTP: ${at(name)}: ${err.message}`);
      });
      const stream = client.sftp.createReadStream(at(name));
      stream.on('close', client.end);
      stream.on('error', client.end);
      return stream;
    },
    remove: (name) =>
      withSftp(cfg, secret, (sftp) => call<void>((cb) => sftp.unlink(at(name), cb)).catch(() => undefined)),
    check: () =>
      withSftp(cfg, secret, async (sftp) => {
        await mkdirs(sftp, cfg.path);
        const probe = at('berth-check.tmp');
        await call<void>((cb) => sftp.writeFile(probe, 'ok', cb));
        await call<void>((cb) => sftp.unlink(probe, cb));
      }),
  };
}
