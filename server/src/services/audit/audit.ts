import type { AuditEntry, AuditQuery } from '@berth/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { AuditRepo, NewAuditEntry } from '../../db/audit-repo';
import { describeTally, RefusedCalls } from './refused-calls';
import { WriteQueue } from '../storage/write-queue';
import type { StorageStatus } from '../storage/storage-status';

const PRUNE_EVERY_MS = 60 * 60 * 1000;
/** How often the refused calls of minutes that are over become rows. */
const TALLY_EVERY_MS = 15_000;
const MAX_TEXT = 500;
export const REFUSED_ROUTE = '(refused unauthenticated calls)';

/** What a feature records; `time` defaults to now. Never put secrets, bodies or env values here. */
export interface AuditRecord {
  user: string | null;
  client: string;
  method: string;
  route: string;
  target: string | null;
  status: number;
  summary: string;
  time?: number;
}

export interface AuditOptions {
  retentionMs: number;
  /** AUDIT_MAX_ROWS: the oldest entries go first beyond it. */
  maxRows: number;
}

const clip = (s: string) => (s.length > MAX_TEXT ? `${s.slice(0, MAX_TEXT - 1)}…` : s);

/**
 * The audit log: one entry per state-changing call (recorded by plugins/audit.ts), plus what
 * other features record themselves (auto-update), plus one row per client and minute for the
 * refused calls of nobody signed in. Read-only through the API; entries leave only by retention
 * (age, then AUDIT_MAX_ROWS). An entry that cannot be written at once (another process holds the
 * database, the disk is full) waits in a bounded queue and is retried in the background, in order.
 */
export class AuditService {
  private readonly timers: NodeJS.Timeout[];
  private readonly refused = new RefusedCalls();
  private readonly queue: WriteQueue<NewAuditEntry>;
  /** Rows in the table as far as this service knows (counted at start, kept by insert and prune). */
  private rows: number;

  constructor(
    private readonly repo: AuditRepo,
    private readonly opts: AuditOptions,
    private readonly log: FastifyBaseLogger,
    storage: StorageStatus,
  ) {
    this.queue = new WriteQueue('audit entry', (e) => this.write(e), log, storage);
    this.rows = repo.count();
    this.prune();
    this.timers = [
      setInterval(() => this.prune(), PRUNE_EVERY_MS),
      setInterval(() => this.tallyRefused(), TALLY_EVERY_MS),
    ];
    for (const t of this.timers) t.unref();
  }

  /** Stores one entry, now or (database busy, disk full) as soon as it can; never throws (the audited call already happened). */
  record(e: AuditRecord): void {
    this.queue.push({
      time: e.time ?? Date.now(),
      user: e.user === null ? null : clip(e.user),
      client: clip(e.client),
      method: e.method,
      route: clip(e.route),
      target: e.target === null ? null : clip(e.target),
      status: e.status,
      summary: clip(e.summary),
    });
  }

  /** A call refused to someone not signed in: counted, and written as one row per client and minute. */
  refusedCall(client: string, status: number): void {
    this.refused.add(client, status);
  }

  /** Entries waiting to be written (0 when the log is up to date). */
  get pending(): number {
    return this.queue.length;
  }

  list(q: AuditQuery): AuditEntry[] {
    return this.repo.find(q);
  }

  /** The entries as CSV (RFC 4180 quoting; cells that a spreadsheet would run as formulas are defused). */
  csv(q: AuditQuery): string {
    const cols = ['id', 'time', 'user', 'client', 'method', 'route', 'target', 'status', 'summary'] as const;
    const cell = (v: string | number | null) => {
      let s = v === null ? '' : String(v);
      if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`;
      return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
    };
    const rows = this.repo.find(q).map((e) => cols.map((c) => cell(e[c])).join(','));
    return [cols.join(','), ...rows].join('\r\n') + '\r\n';
  }

  /** Writes what is still counted or queued (as far as the database lets it), then stops. */
  close(): void {
    for (const t of this.timers) clearInterval(t);
    this.tallyRefused(true);
    this.queue.close();
  }

  private write(e: NewAuditEntry): void {
    this.repo.insert(e);
    if (++this.rows > this.opts.maxRows) this.capRows();
  }

  /** Writes the refused calls counted so far (all of them, not only the minutes that are over). */
  flushRefused(): void {
    this.tallyRefused(true);
  }

  private tallyRefused(all = false): void {
    for (const t of this.refused.take(all))
      this.record({
        time: t.minute,
        user: null,
        client: t.client,
        method: '*',
        route: REFUSED_ROUTE,
        target: null,
        status: [...t.statuses].sort((a, b) => b[1] - a[1])[0]![0],
        summary: describeTally(t),
      });
  }

  private prune(): void {
    try {
      this.rows -= this.repo.pruneBefore(Date.now() - this.opts.retentionMs);
    } catch (err) {
      this.log.error({ err }, 'could not prune the audit log');
    }
    if (this.rows > this.opts.maxRows) this.capRows();
  }

  /**
   * Drops the oldest entries once the table passes AUDIT_MAX_ROWS, down to 90 % of it so that
   * the (linear) cut runs once per tenth of the cap, not on every insert; says so in the log.
   */
  private capRows(): void {
    const keep = this.opts.maxRows - Math.max(1, Math.floor(this.opts.maxRows / 10));
    try {
      const dropped = this.repo.keepNewest(keep);
      this.rows = this.repo.count();
      if (dropped)
        this.log.warn(
          { dropped, maxRows: this.opts.maxRows },
          `audit log reached AUDIT_MAX_ROWS (${this.opts.maxRows}): dropped its ${dropped} oldest entries`,
        );
    } catch (err) {
      this.log.error({ err }, 'could not cap the audit log');
    }
  }
}
