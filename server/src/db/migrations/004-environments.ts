import type { Migration } from './index';

export default {
  version: 4,
  // Environments other than `local` (which comes from DOCKER_HOST and is never stored). The
  // *_sealed columns hold secrets sealed by lib/secret-box (AES-256-GCM); CA, certificate and
  // host key are public material.
  sql: `
      CREATE TABLE environments (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL UNIQUE COLLATE NOCASE,
        url TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('socket', 'tcp', 'ssh')),
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
    `,
} satisfies Migration;
