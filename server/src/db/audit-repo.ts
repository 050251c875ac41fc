import type { AuditEntry, AuditQuery } from '@berth/contract';
import type { Db } from './database';

export type NewAuditEntry = Omit<AuditEntry, 'id' | 'time'> & { time: number };

interface Row extends Omit<AuditEntry, 'time'> {
  time: number;
}

/** LIKE pattern for "contains `text`", with LIKE's own wildcards taken literally. */
const contains = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

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
    const where: string[] = [];
    const args: (string | number)[] = [];
    const add = (sql: string, v: string | number | undefined) => {
      if (v === undefined) return;
      where.push(sql);
      args.push(v);
    };
    add('time >= ?', q.since);
    add('time <= ?', q.until);
    add("user LIKE ? ESCAPE '\\'", q.user === undefined ? undefined : contains(q.user));
    add("(method || ' ' || route) LIKE ? ESCAPE '\\'", q.action === undefined ? undefined : contains(q.action));
    add("target LIKE ? ESCAPE '\\'", q.target === undefined ? undefined : contains(q.target));
    const sql = `SELECT * FROM audit_log ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY id DESC LIMIT ?`;
    return (this.db.prepare(sql).all(...args, q.limit) as Row[]).map((r) => ({ ...r, time: new Date(r.time).toISOString() }));
  }

  pruneBefore(before: number): number {
    return this.db.prepare('DELETE FROM audit_log WHERE time < ?').run(before).changes;
  }
}
