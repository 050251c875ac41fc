import type { AuditEntry, AuditQuery } from '@berth/contract';
import type { Db } from './database';
import { Where } from './where';

export type NewAuditEntry = Omit<AuditEntry, 'id' | 'time'> & { time: number };

interface Row extends Omit<AuditEntry, 'time'> {
  time: number;
}

/** LIKE pattern for "contains `text`", with LIKE's own wildcards taken literally. */
const contains = (text: string | undefined) =>
  text === undefined ? undefined : `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The audit log (migration 6): insert and read only; entries leave only by retention. */
export class AuditRepo {
  private readonly insertStmt;
  constructor(private readonly db: Db) {
    this.insertStmt = db.prepare(
      'INSERT INTO audit_log (time, user, client, method, route, target, status, summary) VALUES (@time, @user, @client, @method, @route, @target, @status, @summary)',
    );
  }

  insert(e: NewAuditEntry): void {
    this.insertStmt.run(e);
  }

  find(q: AuditQuery): AuditEntry[] {
    const where = new Where()
      .add('time >= ?', q.since)
      .add('time <= ?', q.until)
      .add("user LIKE ? ESCAPE '\\'", contains(q.user))
      .add("(method || ' ' || route) LIKE ? ESCAPE '\\'", contains(q.action))
      .add("target LIKE ? ESCAPE '\\'", contains(q.target));
    return (
      this.db.prepare(`SELECT * FROM audit_log ${where} ORDER BY id DESC LIMIT ?`).all(...where.args, q.limit) as Row[]
    ).map((r) => ({ ...r, time: new Date(r.time).toISOString() }));
  }

  pruneBefore(before: number): number {
    return this.db.prepare('DELETE FROM audit_log WHERE time < ?').run(before).changes;
  }

  count(): number {
    return this.db.prepare('SELECT count(*) FROM audit_log').pluck().get() as number;
  }

  /** Drops all but the newest `maxRows` entries; returns how many went. */
  keepNewest(maxRows: number): number {
    const cut = this.db.prepare('SELECT id FROM audit_log ORDER BY id DESC LIMIT 1 OFFSET ?').pluck().get(maxRows) as
      number | undefined;
    return cut === undefined ? 0 : this.db.prepare('DELETE FROM audit_log WHERE id <= ?').run(cut).changes;
  }
}
