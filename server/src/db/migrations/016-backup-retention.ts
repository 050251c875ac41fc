import type { Migration } from './index';

export default {
  version: 16,
  // Backup retention beyond keep_last (issue 35): the newest archive of each of the last D days and W weeks.
  sql: `
      ALTER TABLE backup_jobs ADD COLUMN keep_daily INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE backup_jobs ADD COLUMN keep_weekly INTEGER NOT NULL DEFAULT 0;
    `,
} satisfies Migration;
