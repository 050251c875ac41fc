import type { Migration } from './index';

export default {
  version: 19,
  // Auto-update by version tag (issue 33): how far an update may move a version tag (digest, patch,
  // minor, major); null follows the global policy, whose null is `digest` (the behaviour before).
  sql: `ALTER TABLE auto_update_policies ADD COLUMN version_policy TEXT;`,
} satisfies Migration;
