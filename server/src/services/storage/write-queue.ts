import type { FastifyBaseLogger } from 'fastify';
import { isDatabaseBusy, isStorageFull } from './storage-status';

/** Told of each write's outcome (StorageStatus: whether DATA_DIR is full). */
export interface WriteOutcomes {
  writeFailed(err: unknown): void;
  writeSucceeded(): void;
}

/** Rows held while the database cannot take them; beyond it the oldest are given up (and counted in the log). */
const MAX_QUEUED = 10_000;
const FIRST_RETRY_MS = 200;
const MAX_RETRY_MS = 5_000;

/**
 * Rows that must not be lost to a passing failure (audit entries, engine events): written at once
 * when nothing waits, else queued in order and retried in the background with back-off while
 * another process holds the database's write lock or the disk is full. Other failures are logged
 * and the row dropped (retrying cannot help).
 */
export class WriteQueue<T> {
  private readonly items: T[] = [];
  private timer: NodeJS.Timeout | null = null;
  private delay = FIRST_RETRY_MS;
  private dropped = 0;

  constructor(
    private readonly what: string,
    private readonly write: (item: T) => void,
    private readonly log: FastifyBaseLogger,
    private readonly storage: WriteOutcomes | null = null,
  ) {}

  get length(): number {
    return this.items.length;
  }

  push(item: T): void {
    // Behind rows already waiting it waits too, so rows keep their order and a busy database is not tried per call.
    if (this.items.length === 0 && this.tryWrite(item)) return;
    if (this.items.length >= MAX_QUEUED) {
      this.items.shift();
      if (this.dropped++ === 0)
        this.log.error(`more than ${MAX_QUEUED} ${this.what} rows waiting for the database: dropping the oldest`);
    }
    this.items.push(item);
    this.schedule();
  }

  /** One last flush (shutdown); whatever still cannot be written is named in the log. */
  close(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.flush();
    if (this.items.length) this.log.error(`${this.items.length} ${this.what} rows could not be written before exit`);
  }

  /** Writes `item` now; false (and the failure noted) when it must wait. */
  private tryWrite(item: T): boolean | 'dropped' {
    try {
      this.write(item);
      this.storage?.writeSucceeded();
      return true;
    } catch (err) {
      this.storage?.writeFailed(err);
      if (isDatabaseBusy(err) || isStorageFull(err) || (err as { code?: string }).code === 'SQLITE_LOCKED') {
        if (this.items.length === 0)
          this.log.warn({ err }, `could not write an ${this.what} now; it waits and is retried in the background`);
        return false;
      }
      this.log.error({ err }, `could not write an ${this.what}`);
      return 'dropped';
    }
  }

  private flush(): void {
    while (this.items.length) {
      const ok = this.tryWrite(this.items[0]!);
      if (ok === false) return;
      this.items.shift();
    }
    if (this.dropped)
      this.log.error(`${this.dropped} ${this.what} rows were dropped while the database was unwritable`);
    this.dropped = 0;
    this.delay = FIRST_RETRY_MS;
  }

  private schedule(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.flush();
      if (this.items.length) {
        this.delay = Math.min(this.delay * 2, MAX_RETRY_MS);
        this.schedule();
      }
    }, this.delay);
    this.timer.unref();
  }
}
