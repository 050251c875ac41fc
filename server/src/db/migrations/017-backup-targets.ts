import type { Migration } from './index';

export default {
  version: 17,
  // Backup targets beyond volumes (issue 35): a job's target as JSON (null: the volumes column).
  sql: `ALTER TABLE backup_jobs ADD COLUMN target TEXT;`,
} satisfies Migration;
