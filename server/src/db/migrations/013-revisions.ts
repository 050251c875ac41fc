import type { Migration } from './index';

export default {
  version: 13,
  // Every deploy of a compose project and of a form-deployed app, to return to (issue 34).
  // `env_sealed` and `spec_sealed` are sealed with secret-box (purpose "revisions"): never stored in the clear.
  sql: `
      CREATE TABLE project_revisions (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        environment TEXT NOT NULL,
        project TEXT NOT NULL,
        rev INTEGER NOT NULL,
        created_at TEXT NOT NULL,
        created_by TEXT NOT NULL,
        source TEXT NOT NULL,
        outcome TEXT NOT NULL,
        detail TEXT,
        compose_file TEXT NOT NULL,
        compose TEXT NOT NULL,
        env_sealed TEXT,
        digests TEXT NOT NULL,
        commit_sha TEXT,
        rollback_of INTEGER,
        UNIQUE (environment, project, rev)
      );
      CREATE TABLE app_revisions (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        environment TEXT NOT NULL,
        app TEXT NOT NULL,
        rev INTEGER NOT NULL,
        created_at TEXT NOT NULL,
        created_by TEXT NOT NULL,
        source TEXT NOT NULL,
        outcome TEXT NOT NULL,
        detail TEXT,
        image TEXT NOT NULL,
        digest TEXT,
        spec_sealed TEXT NOT NULL,
        rollback_of INTEGER,
        UNIQUE (environment, app, rev)
      );
    `,
} satisfies Migration;
