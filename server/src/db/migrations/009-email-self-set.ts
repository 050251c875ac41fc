import type { Migration } from './index';

export default {
  version: 9,
  // Single sign-on never links by an email the user typed in themselves (hardening II #2): 1 once
  // the account's owner changed its email; emails set by an admin or at first start stay 0.
  sql: `
      ALTER TABLE users ADD COLUMN email_self_set INTEGER NOT NULL DEFAULT 0;
    `,
} satisfies Migration;
