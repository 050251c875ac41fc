import type { EngineEventRecord, EngineEventType } from '@berth/contract';
import type { Db } from './database';
import { Where } from './where';

export interface NewEngineEvent {
  time: number;
  environment: string;
  type: EngineEventType;
  action: string;
  actorId: string;
  name: string;
  attributes: Record<string, string>;
}

export interface EventsFilterRow {
  environment: string;
  type?: string;
  action?: string;
  name?: string;
  since?: number;
  until?: number;
  /** Only rows with a larger id (a stream's replay hand-over). */
  afterId?: number;
  limit: number;
}

interface Row {
  id: number;
  time: number;
  environment: string;
  type: EngineEventType;
  action: string;
  actor_id: string;
  name: string;
  attributes: string;
}

const toRecord = (r: Row): EngineEventRecord => ({
  id: r.id,
  time: new Date(r.time).toISOString(),
  environment: r.environment,
  type: r.type,
  action: r.action,
  actor_id: r.actor_id,
  name: r.name,
  attributes: JSON.parse(r.attributes) as Record<string, string>,
});

/** The engine event history (migration 6). */
export class EventsRepo {
  private readonly insertStmt;
  constructor(private readonly db: Db) {
    this.insertStmt = db.prepare(
      'INSERT INTO engine_events (time, environment, type, action, actor_id, name, attributes) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id',
    );
  }

  insert(e: NewEngineEvent): EngineEventRecord {
    const id = this.insertStmt
      .pluck()
      .get(e.time, e.environment, e.type, e.action, e.actorId, e.name, JSON.stringify(e.attributes)) as number;
    return toRecord({
      id,
      time: e.time,
      environment: e.environment,
      type: e.type,
      action: e.action,
      actor_id: e.actorId,
      name: e.name,
      attributes: JSON.stringify(e.attributes),
    });
  }

  /** Matching rows: newest first, or oldest first with `ascending` (a replay). */
  find(f: EventsFilterRow, ascending = false): EngineEventRecord[] {
    const where = new Where()
      .add('environment = ?', f.environment)
      .add('type = ?', f.type)
      .add('action = ?', f.action)
      .add('name = ?', f.name)
      .add('time >= ?', f.since)
      .add('time <= ?', f.until)
      .add('id > ?', f.afterId);
    const order = ascending ? 'ASC' : 'DESC';
    const rows = this.db
      .prepare(`SELECT * FROM engine_events ${where} ORDER BY time ${order}, id ${order} LIMIT ?`)
      .all(...where.args, f.limit) as Row[];
    return rows.map(toRecord);
  }

  /** Drops rows older than `before` and all but the newest `maxRows`; returns how many went. */
  prune(before: number, maxRows: number): number {
    const old = this.db.prepare('DELETE FROM engine_events WHERE time < ?').run(before).changes;
    const cut = this.db
      .prepare('SELECT id FROM engine_events ORDER BY id DESC LIMIT 1 OFFSET ?')
      .pluck()
      .get(maxRows) as number | undefined;
    const over = cut === undefined ? 0 : this.db.prepare('DELETE FROM engine_events WHERE id <= ?').run(cut).changes;
    return old + over;
  }
}
