import type { BackupRun } from '@berth/contract';
import type { Db } from './database';

export interface DestinationRow {
  id: number;
  name: string;
  kind: 'folder' | 'sftp' | 's3';
  /** JSON of the non-secret fields. */
  config: string;
  secret_sealed: string | null;
  created_at: string;
}

export interface JobRow {
  id: number;
  name: string;
  environment: string;
  /** JSON array of volume names. */
  volumes: string;
  destination_id: number;
  schedule: string | null;
  drill_schedule: string | null;
  keep_last: number;
  keep_daily: number;
  keep_weekly: number;
  passphrase_sealed: string | null;
  created_at: string;
  /** JSON of the job's BackupTarget; null for a job of `volumes` made before targets. */
  target: string | null;
}

export interface ArchiveRow {
  id: number;
  job_id: number | null;
  destination_id: number;
  name: string;
  created_at: string;
  bytes: number;
  manifest: string;
  verified_at: string | null;
  verify_error: string | null;
}

export type RunRow = BackupRun;

/** Backup destinations, jobs, archives and runs (issue 35). */
export class BackupsRepo {
  constructor(private readonly db: Db) {}

  destinations(): DestinationRow[] {
    return this.db.prepare('SELECT * FROM backup_destinations ORDER BY name').all() as DestinationRow[];
  }
  destination(id: number): DestinationRow | null {
    return (this.db.prepare('SELECT * FROM backup_destinations WHERE id = ?').get(id) as DestinationRow) ?? null;
  }
  insertDestination(row: Omit<DestinationRow, 'id'>): number {
    return Number(
      this.db
        .prepare(
          'INSERT INTO backup_destinations (name, kind, config, secret_sealed, created_at) VALUES (@name, @kind, @config, @secret_sealed, @created_at)',
        )
        .run(row).lastInsertRowid,
    );
  }
  removeDestination(id: number): boolean {
    return this.db.prepare('DELETE FROM backup_destinations WHERE id = ?').run(id).changes > 0;
  }
  destinationInUse(id: number): boolean {
    return this.db.prepare('SELECT 1 FROM backup_jobs WHERE destination_id = ?').get(id) !== undefined;
  }
  nameTaken(table: 'backup_destinations' | 'backup_jobs', name: string): boolean {
    return this.db.prepare(`SELECT 1 FROM ${table} WHERE name = ?`).get(name) !== undefined;
  }

  jobs(): JobRow[] {
    return this.db.prepare('SELECT * FROM backup_jobs ORDER BY name').all() as JobRow[];
  }
  job(id: number): JobRow | null {
    return (this.db.prepare('SELECT * FROM backup_jobs WHERE id = ?').get(id) as JobRow) ?? null;
  }
  insertJob(row: Omit<JobRow, 'id'>): number {
    return Number(
      this.db
        .prepare(
          `INSERT INTO backup_jobs (name, environment, volumes, destination_id, schedule, drill_schedule, keep_last, keep_daily, keep_weekly, passphrase_sealed, created_at, target)
           VALUES (@name, @environment, @volumes, @destination_id, @schedule, @drill_schedule, @keep_last, @keep_daily, @keep_weekly, @passphrase_sealed, @created_at, @target)`,
        )
        .run(row).lastInsertRowid,
    );
  }
  /** Writes a job's changeable fields (not its environment, passphrase or creation time). */
  updateJob(row: JobRow): void {
    this.db
      .prepare(
        `UPDATE backup_jobs SET name = @name, volumes = @volumes, destination_id = @destination_id, schedule = @schedule,
         drill_schedule = @drill_schedule, keep_last = @keep_last, keep_daily = @keep_daily, keep_weekly = @keep_weekly, target = @target
         WHERE id = @id`,
      )
      .run(row);
  }
  removeJob(id: number): boolean {
    return this.db.prepare('DELETE FROM backup_jobs WHERE id = ?').run(id).changes > 0;
  }

  archives(jobId?: number): ArchiveRow[] {
    return (
      jobId === undefined
        ? this.db.prepare('SELECT * FROM backup_archives ORDER BY id DESC').all()
        : this.db.prepare('SELECT * FROM backup_archives WHERE job_id = ? ORDER BY id DESC').all(jobId)
    ) as ArchiveRow[];
  }
  archive(id: number): ArchiveRow | null {
    return (this.db.prepare('SELECT * FROM backup_archives WHERE id = ?').get(id) as ArchiveRow) ?? null;
  }
  insertArchive(row: Omit<ArchiveRow, 'id' | 'verified_at' | 'verify_error'>): number {
    return Number(
      this.db
        .prepare(
          `INSERT INTO backup_archives (job_id, destination_id, name, created_at, bytes, manifest)
           VALUES (@job_id, @destination_id, @name, @created_at, @bytes, @manifest)`,
        )
        .run(row).lastInsertRowid,
    );
  }
  markVerified(id: number, at: string, error: string | null): void {
    this.db
      .prepare(
        'UPDATE backup_archives SET verified_at = CASE WHEN ? IS NULL THEN ? ELSE verified_at END, verify_error = ? WHERE id = ?',
      )
      .run(error, at, error, id);
  }
  removeArchive(id: number): void {
    this.db.prepare('DELETE FROM backup_archives WHERE id = ?').run(id);
  }
  lastVerified(jobId: number): string | null {
    const row = this.db.prepare('SELECT MAX(verified_at) AS at FROM backup_archives WHERE job_id = ?').get(jobId) as {
      at: string | null;
    };
    return row.at;
  }

  startRun(jobId: number | null, kind: RunRow['kind'], at: string): number {
    return Number(
      this.db
        .prepare("INSERT INTO backup_runs (job_id, kind, started_at, outcome) VALUES (?, ?, ?, 'running')")
        .run(jobId, kind, at).lastInsertRowid,
    );
  }
  finishRun(id: number, r: Pick<RunRow, 'outcome' | 'bytes' | 'archive' | 'error'> & { finished_at: string }): void {
    this.db
      .prepare(
        `UPDATE backup_runs SET outcome = @outcome, bytes = @bytes, archive = @archive, error = @error, finished_at = @finished_at,
         duration_ms = CAST((julianday(@finished_at) - julianday(started_at)) * 86400000 AS INTEGER) WHERE id = @id`,
      )
      .run({ ...r, id });
  }
  run(id: number): RunRow {
    return this.db.prepare('SELECT * FROM backup_runs WHERE id = ?').get(id) as RunRow;
  }
  runs(jobId?: number, limit = 200): RunRow[] {
    return (
      jobId === undefined
        ? this.db.prepare('SELECT * FROM backup_runs ORDER BY id DESC LIMIT ?').all(limit)
        : this.db.prepare('SELECT * FROM backup_runs WHERE job_id = ? ORDER BY id DESC LIMIT ?').all(jobId, limit)
    ) as RunRow[];
  }
  lastRun(jobId: number): RunRow | null {
    return (
      (this.db
        .prepare("SELECT * FROM backup_runs WHERE job_id = ? AND kind = 'backup' ORDER BY id DESC LIMIT 1")
        .get(jobId) as RunRow) ?? null
    );
  }
}
