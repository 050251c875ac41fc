import type { Migration } from './index';

export default {
  version: 22,
  // Auto-heal's give-up (its hourly cap reached), kept across restarts of Berth so the cap is not
  // forgotten nor notified again: one row per container name (app, or `<project>/<service>`), until
  // it is healthy again or an operator resets it.
  sql: `
      CREATE TABLE auto_heal_gave_up (
        env TEXT NOT NULL,
        target TEXT NOT NULL,
        time INTEGER NOT NULL,
        PRIMARY KEY (env, target)
      );
    `,
} satisfies Migration;
