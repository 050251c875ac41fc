import type { AuditEntry, AuditQuery } from '@berth/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { AuditRepo } from '../../db/audit-repo';

const PRUNE_EVERY_MS = 60 * 60 * 1000;
const MAX_TEXT = 500;

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

const clip = (s: string) => (s.length > MAX_TEXT ? `${s.slice(0, MAX_TEXT - 1)}…` : s);

/**
 * The audit log: one entry per state-changing call (recorded by plugins/audit.ts), plus what
 * other features record themselves (auto-update). Read-only through the API; entries leave only
 * by retention.
 */
export class AuditService {
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly repo: AuditRepo,
    private readonly retentionMs: number,
    private readonly log: FastifyBaseLogger,
  ) {
    this.prune();
    this.timer = setInterval(() => this.prune(), PRUNE_EVERY_MS);
    this.timer.unref();
  }

  /** Stores one entry; a failure is logged, never thrown (the audited call already happened). */
  record(e: AuditRecord): void {
    try {
      this.repo.insert({
        time: e.time ?? Date.now(),
        user: e.user === null ? null : clip(e.user),
        client: clip(e.client),
        method: e.method,
        route: clip(e.route),
        target: e.target === null ? null : clip(e.target),
        status: e.status,
        summary: clip(e.summary),
      });
    } catch (err) {
      this.log.error({ err }, 'could not write an audit entry');
    }
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

  close(): void {
    clearInterval(this.timer);
  }

  private prune(): void {
    try {
      this.repo.pruneBefore(Date.now() - this.retentionMs);
    } catch (err) {
      this.log.error({ err }, 'could not prune the audit log');
    }
  }
}
