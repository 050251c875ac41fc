import type { Migration } from './index';

export default {
  version: 20,
  // Auto-heal: the global default (env '', scope 'global', target ''), app overrides (target = the
  // app's name) and compose service overrides (scope 'service', target '<project>/<service>'),
  // null fields following the default; its restarts (for the hourly cap). Threshold rules: a
  // notification rule's threshold, window and basis.
  sql: `
      CREATE TABLE auto_heal_policies (
        env TEXT NOT NULL,
        scope TEXT NOT NULL,
        target TEXT NOT NULL,
        enabled INTEGER,
        checks INTEGER,
        max_restarts INTEGER,
        backoff_seconds INTEGER,
        PRIMARY KEY (env, scope, target)
      );
      CREATE TABLE auto_heal_restarts (
        env TEXT NOT NULL,
        target TEXT NOT NULL,
        time INTEGER NOT NULL
      );
      CREATE INDEX auto_heal_restarts_target ON auto_heal_restarts (env, target, time);
      ALTER TABLE notification_rules ADD COLUMN threshold REAL;
      ALTER TABLE notification_rules ADD COLUMN for_minutes REAL NOT NULL DEFAULT 5;
      ALTER TABLE notification_rules ADD COLUMN basis TEXT NOT NULL DEFAULT 'limit';
    `,
} satisfies Migration;
