import type { LogArchiveReason } from '@berth/contract';
import type { Db } from './database';

/** A kept container log's metadata (migration 18); its lines are a file of services/log-archive. */
export interface LogArchiveRow {
  id: number;
  environment: string;
  container_id: string;
  name: string;
  project: string | null;
  service: string | null;
  image: string;
  started_at: string | null;
  finished_at: string | null;
  exit_code: number | null;
  first_line_at: string | null;
  last_line_at: string | null;
  lines: number;
  bytes: number;
  stored_bytes: number;
  reason: LogArchiveReason;
  /** Milliseconds since the epoch. */
  captured_at: number;
  removed_at: number | null;
}

export type NewLogArchive = Omit<LogArchiveRow, 'id' | 'removed_at'>;

/** The kept logs of earlier containers, of every environment. */
export class LogArchivesRepo {
  constructor(private readonly db: Db) {}

  /** Inserts the container's row or replaces its fields (a container kept again keeps its id); returns the id. */
  upsert(r: NewLogArchive): number {
    const cols = Object.keys(r) as (keyof NewLogArchive)[];
    const updates = cols.filter((c) => c !== 'environment' && c !== 'container_id').map((c) => `${c} = excluded.${c}`);
    return this.db
      .prepare(
        `INSERT INTO log_archives (${cols.join(', ')}) VALUES (${cols.map(() => '?').join(', ')})
         ON CONFLICT (environment, container_id) DO UPDATE SET ${updates.join(', ')} RETURNING id`,
      )
      .pluck()
      .get(...cols.map((c) => r[c])) as number;
  }

  byContainer(environment: string, containerId: string): LogArchiveRow | undefined {
    return this.db
      .prepare('SELECT * FROM log_archives WHERE environment = ? AND container_id = ?')
      .get(environment, containerId) as LogArchiveRow | undefined;
  }

  get(environment: string, id: number): LogArchiveRow | undefined {
    return this.db.prepare('SELECT * FROM log_archives WHERE environment = ? AND id = ?').get(environment, id) as
      LogArchiveRow | undefined;
  }

  /** The rows of a container name, or of a compose project's service, newest first. */
  ofApp(environment: string, name: string, compose: { project: string; service: string } | null): LogArchiveRow[] {
    return this.db
      .prepare(
        `SELECT * FROM log_archives WHERE environment = ? AND (name = ? OR (project = ? AND service = ?))
         ORDER BY captured_at DESC, id DESC`,
      )
      .all(environment, name, compose?.project ?? null, compose?.service ?? null) as LogArchiveRow[];
  }

  markRemoved(environment: string, containerId: string, at: number): void {
    this.db
      .prepare(
        'UPDATE log_archives SET removed_at = ? WHERE environment = ? AND container_id = ? AND removed_at IS NULL',
      )
      .run(at, environment, containerId);
  }

  /** Every row's id and size, oldest first (what pruning walks). */
  sizes(): { id: number; stored_bytes: number; captured_at: number }[] {
    return this.db
      .prepare('SELECT id, stored_bytes, captured_at FROM log_archives ORDER BY captured_at ASC, id ASC')
      .all() as { id: number; stored_bytes: number; captured_at: number }[];
  }

  delete(ids: number[]): void {
    const stmt = this.db.prepare('DELETE FROM log_archives WHERE id = ?');
    this.db.transaction(() => ids.forEach((id) => stmt.run(id)))();
  }
}
