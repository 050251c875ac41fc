import type { Migration } from './index';

export default {
  version: 14,
  // Git-backed projects (issue 34): credentials (secrets sealed), each project's source, and the
  // webhooks (one per repository, shared by its projects; the secret sealed: HMACs need it back).
  sql: `
      CREATE TABLE git_credentials (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('https', 'ssh')),
        username TEXT,
        secret_sealed TEXT NOT NULL,
        known_hosts TEXT NOT NULL DEFAULT '',
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
      CREATE TABLE git_hooks (
        id TEXT PRIMARY KEY,
        url TEXT NOT NULL UNIQUE,
        secret_sealed TEXT NOT NULL,
        created_at TEXT NOT NULL
      );
      CREATE TABLE git_sources (
        environment TEXT NOT NULL,
        name TEXT NOT NULL,
        url TEXT NOT NULL,
        ref TEXT NOT NULL,
        path TEXT NOT NULL,
        env_file TEXT,
        credential_id TEXT REFERENCES git_credentials(id),
        sync_policy TEXT NOT NULL CHECK (sync_policy IN ('manual', 'poll', 'webhook')),
        poll_minutes INTEGER,
        hook_id TEXT REFERENCES git_hooks(id),
        deployed_commit TEXT,
        latest_commit TEXT,
        last_fetch_at TEXT,
        last_error TEXT,
        created_at TEXT NOT NULL,
        PRIMARY KEY (environment, name)
      );
    `,
} satisfies Migration;
