import fs from 'node:fs';

/** Error codes that mean "no room left" from SQLite (better-sqlite3) and from the file system. */
const FULL_CODES = new Set(['SQLITE_FULL', 'ENOSPC', 'EDQUOT']);

/** Whether `err` is a write that failed because the disk (or the user's quota) is full. */
export function isStorageFull(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && FULL_CODES.has(code);
}

/** Whether `err` is SQLite giving up on a lock another connection or process holds. */
export function isDatabaseBusy(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (code === 'SQLITE_BUSY' || code.startsWith('SQLITE_BUSY_'));
}

/** Below this much free space SQLite cannot be trusted to write a page, a journal and a WAL frame. */
const MIN_FREE_BYTES = 256 * 1024;
/** statfs is cheap, but a flood of calls need not make one each. */
const CACHE_MS = 1000;

/**
 * Whether DATA_DIR has room to write: its file system's free space (statfs, cached a second) and
 * the last write that failed for lack of room, until a later write succeeds or a later look at
 * the file system finds room again (the refusals themselves write nothing that could succeed).
 */
export class StorageStatus {
  private checkedAt = 0;
  private lowSpace = false;
  private failedAt: number | null = null;

  constructor(
    readonly dataDir: string,
    private readonly now: () => number = Date.now,
  ) {}

  /** A write into DATA_DIR failed: when for lack of room, the data dir counts as full until a write succeeds. */
  writeFailed(err: unknown): void {
    if (isStorageFull(err)) this.failedAt = this.now();
  }

  writeSucceeded(): void {
    this.failedAt = null;
  }

  get full(): boolean {
    const now = this.now();
    if (now - this.checkedAt >= CACHE_MS) {
      this.checkedAt = now;
      try {
        const s = fs.statfsSync(this.dataDir);
        this.lowSpace = s.bavail * s.bsize < MIN_FREE_BYTES;
      } catch {
        // A data dir we cannot stat is not known to be full; the write that fails will say why.
        this.lowSpace = false;
      }
      if (!this.lowSpace && this.failedAt !== null && this.failedAt < now) this.failedAt = null;
    }
    return this.lowSpace || this.failedAt !== null;
  }

  /** The detail every "disk full" answer and the health check give. */
  get detail(): string {
    return `Disk full: the file system holding DATA_DIR (${this.dataDir}) has no room left. Free some space there; Berth refuses changes until it can record them.`;
  }
}
