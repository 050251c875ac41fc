import type { Migration } from './index';

export default {
  version: 18,
  // Logs that outlive their container (issue 36): one row per container whose last lines Berth kept;
  // the lines themselves are a zstd file in DATA_DIR/log-archive named after the row's id.
  sql: `
      CREATE TABLE log_archives (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        environment TEXT NOT NULL,
        container_id TEXT NOT NULL,
        name TEXT NOT NULL,
        project TEXT,
        service TEXT,
        image TEXT NOT NULL,
        started_at TEXT,
        finished_at TEXT,
        exit_code INTEGER,
        first_line_at TEXT,
        last_line_at TEXT,
        lines INTEGER NOT NULL,
        bytes INTEGER NOT NULL,
        stored_bytes INTEGER NOT NULL,
        reason TEXT NOT NULL,
        captured_at INTEGER NOT NULL,
        removed_at INTEGER,
        UNIQUE (environment, container_id)
      );
      CREATE INDEX log_archives_name ON log_archives (environment, name);
      CREATE INDEX log_archives_service ON log_archives (environment, project, service);
      CREATE INDEX log_archives_captured ON log_archives (captured_at);
    `,
} satisfies Migration;
