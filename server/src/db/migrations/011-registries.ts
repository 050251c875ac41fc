import type { Migration } from './index';

export default {
  version: 11,
  // Registry credentials (issue 33): the password or token is sealed (lib/secret-box), the CA is public text,
  // `environments` is a JSON array of environment ids or NULL for every environment.
  sql: `
      CREATE TABLE registries (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        name TEXT NOT NULL UNIQUE COLLATE NOCASE,
        server_address TEXT NOT NULL,
        username TEXT,
        password_sealed TEXT,
        ca_cert TEXT,
        environments TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
    `,
} satisfies Migration;
