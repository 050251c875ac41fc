import type { Migration } from './index';

export default {
  version: 12,
  // Agent environments (issue 40): `agent` joins the kinds (SQLite cannot change a CHECK, so the
  // table is copied), and each agent environment has one row of its enrolment: the one-time
  // token's SHA-256 until it is used, then the agent's Ed25519 public key until it is revoked.
  sql: `
      CREATE TABLE environments_v12 (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL UNIQUE COLLATE NOCASE,
        url TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('socket', 'tcp', 'ssh', 'agent')),
        tls_ca TEXT,
        tls_cert TEXT,
        tls_key_sealed TEXT,
        ssh_user TEXT,
        ssh_key_sealed TEXT,
        ssh_passphrase_sealed TEXT,
        ssh_host_key TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
      INSERT INTO environments_v12 SELECT id, name, url, kind, tls_ca, tls_cert, tls_key_sealed, ssh_user,
        ssh_key_sealed, ssh_passphrase_sealed, ssh_host_key, created_at, updated_at FROM environments;
      DROP TABLE environments;
      ALTER TABLE environments_v12 RENAME TO environments;
      CREATE TABLE environment_agents (
        environment TEXT PRIMARY KEY,
        token_hash TEXT UNIQUE,
        token_created_at TEXT,
        public_key TEXT UNIQUE,
        enrolled_at TEXT,
        revoked_at TEXT
      );
    `,
} satisfies Migration;
