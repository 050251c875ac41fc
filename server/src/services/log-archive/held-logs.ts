import { readFileSync } from 'node:fs';
import fs, { type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { ContainerDetail, Engine } from '../../docker/engine';
import type { LogLine } from '../../docker/logs';
import { FILE_DRIVERS, readFileTail, type FileDriver } from './log-file';

/**
 * At most this many files are held: half the process's open-file limit, so sockets and the
 * database never run short (read from /proc; 1024 when it cannot be).
 */
export function heldFileCap(limits = '/proc/self/limits'): number {
  try {
    const soft = /^Max open files\s+(\d+|unlimited)/m.exec(readFileSync(limits, 'utf8'))?.[1];
    return soft === undefined ? 1024 : soft === 'unlimited' ? 65_536 : Math.max(0, Math.floor(Number(soft) / 2));
  } catch {
    return 1024;
  }
}

/** Removed containers remembered, so a hold that was under way when one went is let go. */
const GONE_KEPT = 1000;
/** How often a held file is compared with the file at its path (a rotation renames it away). */
const ROTATION_CHECK_MS = 15_000;

interface Held {
  driver: FileDriver;
  path: string;
  file: FileHandle;
  ino: number;
  /** The file before the last rotation seen: the tail may begin there. */
  previous: FileHandle | null;
  /** When Berth last took hold of it (Date.now(); a start renews it): a log kept before then is of an earlier run. */
  since: number;
}

/** Where the driver writes the container's log on the engine's host ('' when it keeps none there). */
export function logFileOf(info: ContainerDetail): { driver: FileDriver; path: string } | null {
  const driver = info.HostConfig.LogConfig?.Type ?? '';
  if (!FILE_DRIVERS.includes(driver)) return null;
  if (driver === 'json-file') return info.LogPath ? { driver, path: info.LogPath } : null;
  // The local driver leaves LogPath empty; its file is in the container's folder, beside `hostname`.
  const dir = info.HostnamePath ? path.dirname(info.HostnamePath) : '';
  return dir ? { driver: 'local', path: path.join(dir, 'local-logs', 'container.log') } : null;
}

/**
 * Each running container's log file held open read-only, on the engine's own host (the local
 * environment over a unix socket, Berth running there with the right to read the engine's data
 * root). When the container is removed outside Berth while running (`docker rm -f`), the engine
 * deletes the file before its `destroy` event, and a log read through the engine finds nothing;
 * an unlinked file stays readable through a descriptor still open, so its tail is kept from there.
 * One descriptor per running container (two for one whose log rotated since the last check).
 */
export class HeldLogs {
  private readonly held = new Map<string, Held>();
  private readonly opening = new Map<string, Promise<void>>();
  /** Containers removed lately (ids are never reused). */
  private readonly gone = new Set<string>();
  private timer: NodeJS.Timeout | null = null;
  /** Set once a file could not be opened for want of the right to read it: none will be. */
  private unavailable = false;
  private readonly cap = heldFileCap();
  private warnedFull = false;

  constructor(
    private readonly docker: Engine,
    private readonly log: FastifyBaseLogger,
  ) {}

  get size(): number {
    return this.held.size;
  }

  /** Holds the log of every running container (at start; each later one on its `start` event). */
  async holdRunning(): Promise<void> {
    const running = await this.docker.listContainers({ filters: { status: ['running'] } });
    for (const c of running) await this.hold(c.Id, false);
    this.timer ??= setInterval(() => void this.checkRotation(), ROTATION_CHECK_MS);
    this.timer.unref();
  }

  /**
   * Holds a running container's log file (never throws; a container whose file Berth cannot read
   * is skipped). `started`: on its `start` event (a restart renews the hold of a file held already).
   */
  hold(id: string, started = true): Promise<void> {
    if (this.unavailable) return Promise.resolve();
    const before = this.opening.get(id) ?? Promise.resolve();
    const next = before
      .then(() => this.open(id, started))
      .finally(() => {
        if (this.opening.get(id) === next) this.opening.delete(id);
      });
    this.opening.set(id, next);
    return next;
  }

  /** When Berth began holding the container's log, or null when it holds none (waits for an open under way). */
  async heldSince(id: string): Promise<number | null> {
    await this.opening.get(id);
    return this.held.get(id)?.since ?? null;
  }

  /** The held file's last lines (and the file's before a rotation, if those are too few); null when none is held. */
  async tail(id: string, lines: number, bytes: number): Promise<LogLine[] | null> {
    await this.opening.get(id);
    const h = this.held.get(id);
    if (!h) return null;
    const now = await readFileTail(h.file, h.driver, lines, bytes);
    if (now.length >= lines || !h.previous) return now;
    const before = await readFileTail(h.previous, h.driver, lines - now.length, bytes);
    return [...before, ...now];
  }

  /** Lets go of a container's file (it was kept, or is gone), unless it was held again after `before` (a restart). */
  async release(id: string, before = Infinity): Promise<void> {
    await this.opening.get(id);
    const h = this.held.get(id);
    if (!h || h.since > before) return;
    this.held.delete(id);
    await closeAll(h);
  }

  /** Lets go of a removed container's file for good: a hold still under way for it ends with nothing held. */
  async forget(id: string): Promise<void> {
    this.gone.add(id);
    if (this.gone.size > GONE_KEPT) this.gone.delete(this.gone.values().next().value!);
    await this.release(id);
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await Promise.all([...this.opening.values()]);
    const all = [...this.held.values()];
    this.held.clear();
    await Promise.all(all.map(closeAll));
  }

  private async open(id: string, started: boolean): Promise<void> {
    const info = await this.docker.inspectContainer(id).catch(() => null);
    const where = info?.State.Running ? logFileOf(info) : null;
    if (!info || !where) return;
    const h = this.held.get(info.Id);
    if (!h && this.held.size >= this.cap) return this.full();
    let file: FileHandle;
    try {
      if (h && h.path === where.path && (await fs.stat(where.path)).ino === h.ino) {
        if (started) h.since = Date.now(); // started again: not to be let go by the capture of the stop before
        return;
      }
      file = await fs.open(where.path, 'r');
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EACCES' || code === 'EPERM') {
        this.unavailable = true;
        this.log.warn(
          { err },
          "Berth may not read the engine's container log files: a running container removed outside Berth keeps no log",
        );
      } else if (code === 'EMFILE' || code === 'ENFILE') this.full();
      // ENOENT: gone already, or Berth runs where the engine's data root is not (in a container without it mounted).
      else this.log.debug({ err, container: id }, 'the log file of a container could not be held');
      return;
    }
    if (this.gone.has(info.Id)) return void (await file.close());
    const ino = (await file.stat()).ino;
    if (h) await closeAll(h);
    this.held.set(info.Id, { ...where, file, ino, previous: null, since: Date.now() });
  }

  /** A rotation renamed the held file away (json-file and local `max-size`): hold the new one, keep the one before. */
  private async checkRotation(): Promise<void> {
    for (const [id, h] of this.held) {
      const ino = await fs.stat(h.path).then(
        (s) => s.ino,
        () => null,
      );
      if (ino === null || ino === h.ino || this.held.get(id) !== h) continue;
      const file = await fs.open(h.path, 'r').catch(() => null);
      if (!file || this.held.get(id) !== h) {
        await file?.close();
        continue;
      }
      await h.previous?.close();
      this.held.set(id, { ...h, file, ino, previous: h.file });
    }
  }

  private full(): void {
    if (this.warnedFull) return;
    this.warnedFull = true;
    this.log.warn(
      { held: this.held.size },
      'Berth holds as many container log files as it may: a running container removed outside Berth may keep no log',
    );
  }
}

async function closeAll(h: Held): Promise<void> {
  await Promise.all([h.file.close(), h.previous?.close()]).catch(() => undefined);
}
