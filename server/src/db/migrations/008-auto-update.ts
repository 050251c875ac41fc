import type { Migration } from './index';

export default {
  version: 8,
  // Auto-update: the global policy (scope 'global', target ''), per-app overrides (null = follow
  // the global policy), image digests that failed the health gate (not retried) and run history.
  sql: `
      CREATE TABLE auto_update_policies (
        env TEXT NOT NULL,
        scope TEXT NOT NULL,
        target TEXT NOT NULL,
        enabled INTEGER,
        mode TEXT,
        schedule TEXT,
        settle_seconds INTEGER,
        PRIMARY KEY (env, scope, target)
      );
      CREATE TABLE auto_update_bad_digests (
        env TEXT NOT NULL,
        target TEXT NOT NULL,
        digest TEXT NOT NULL,
        recorded_at TEXT NOT NULL,
        PRIMARY KEY (env, target, digest)
      );
      CREATE TABLE auto_update_runs (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        env TEXT NOT NULL,
        trigger TEXT NOT NULL,
        started_at TEXT NOT NULL,
        finished_at TEXT,
        results TEXT NOT NULL
      );
    `,
} satisfies Migration;
