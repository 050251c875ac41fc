import type { Migration } from './index';

export default {
  version: 15,
  // Backups (issue 35): destinations (secrets sealed), jobs, their runs and the archives kept.
  sql: `
      CREATE TABLE backup_destinations (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        name TEXT NOT NULL UNIQUE,
        kind TEXT NOT NULL,
        config TEXT NOT NULL,
        secret_sealed TEXT,
        created_at TEXT NOT NULL
      );
      CREATE TABLE backup_jobs (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        name TEXT NOT NULL UNIQUE,
        environment TEXT NOT NULL,
        volumes TEXT NOT NULL,
        destination_id INTEGER NOT NULL REFERENCES backup_destinations(id),
        schedule TEXT,
        drill_schedule TEXT,
        keep_last INTEGER NOT NULL,
        passphrase_sealed TEXT,
        created_at TEXT NOT NULL
      );
      CREATE TABLE backup_archives (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        job_id INTEGER REFERENCES backup_jobs(id) ON DELETE SET NULL,
        destination_id INTEGER NOT NULL REFERENCES backup_destinations(id),
        name TEXT NOT NULL,
        created_at TEXT NOT NULL,
        bytes INTEGER NOT NULL,
        manifest TEXT NOT NULL,
        verified_at TEXT,
        verify_error TEXT
      );
      CREATE TABLE backup_runs (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        job_id INTEGER REFERENCES backup_jobs(id) ON DELETE SET NULL,
        kind TEXT NOT NULL,
        started_at TEXT NOT NULL,
        finished_at TEXT,
        outcome TEXT NOT NULL,
        bytes INTEGER,
        duration_ms INTEGER,
        archive TEXT,
        error TEXT
      );
      CREATE INDEX backup_runs_job ON backup_runs (job_id, id);
      CREATE INDEX backup_archives_job ON backup_archives (job_id, id);
    `,
} satisfies Migration;
