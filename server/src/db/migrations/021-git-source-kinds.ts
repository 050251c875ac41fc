import type { Migration } from './index';

export default {
  version: 21,
  // A git source belongs to a compose project or a swarm stack (issue 34): `kind` joins the key, so
  // a project and a stack of one name may each come from git. SQLite cannot change a primary key
  // in place: the table is made anew and its rows copied (all of them projects until now).
  sql: `
      CREATE TABLE git_sources_new (
        environment TEXT NOT NULL,
        kind TEXT NOT NULL DEFAULT 'project' CHECK (kind IN ('project', 'stack')),
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
        PRIMARY KEY (environment, kind, name)
      );
      INSERT INTO git_sources_new (environment, kind, name, url, ref, path, env_file, credential_id, sync_policy,
        poll_minutes, hook_id, deployed_commit, latest_commit, last_fetch_at, last_error, created_at)
      SELECT environment, 'project', name, url, ref, path, env_file, credential_id, sync_policy,
        poll_minutes, hook_id, deployed_commit, latest_commit, last_fetch_at, last_error, created_at FROM git_sources;
      DROP TABLE git_sources;
      ALTER TABLE git_sources_new RENAME TO git_sources;
    `,
} satisfies Migration;
