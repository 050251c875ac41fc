import type { Migration } from './index';

export default {
  version: 3,
  // Migration 1 made a key/value `settings` table that nothing ever read or wrote.
  sql: `DROP TABLE IF EXISTS settings;`,
} satisfies Migration;
