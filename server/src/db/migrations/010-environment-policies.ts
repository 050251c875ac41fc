import type { Migration } from './index';

export default {
  version: 10,
  // What non-admins may put into containers, per environment (issue 32); no row = the defaults.
  sql: `
      CREATE TABLE environment_policies (
        environment TEXT PRIMARY KEY,
        policy TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        updated_by TEXT NOT NULL
      );
    `,
} satisfies Migration;
