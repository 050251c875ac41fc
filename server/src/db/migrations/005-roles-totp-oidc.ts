import type { Migration } from './index';

export default {
  version: 5,
  // Accounts (issue 20): several users with a role; the users that exist (the first-start
  // admin) become admins. A disabled user keeps their row but cannot sign in. TOTP: the
  // secret (set at setup, active once totp_enabled_at is set), the last accepted time step
  // (a code cannot be replayed) and hashed one-time recovery codes. Sessions remember the
  // device and address they were started from and when they were last used. oidc_subject
  // links an account to its OpenID Connect identity (issuer's `sub`).
  sql: `
      ALTER TABLE users ADD COLUMN role TEXT NOT NULL DEFAULT 'viewer' CHECK (role IN ('viewer', 'operator', 'admin'));
      UPDATE users SET role = 'admin';
      ALTER TABLE users ADD COLUMN disabled_at TEXT;
      ALTER TABLE users ADD COLUMN totp_secret TEXT;
      ALTER TABLE users ADD COLUMN totp_enabled_at TEXT;
      ALTER TABLE users ADD COLUMN totp_last_step INTEGER;
      ALTER TABLE users ADD COLUMN oidc_subject TEXT;
      CREATE UNIQUE INDEX users_oidc_subject ON users(oidc_subject);
      CREATE TABLE recovery_codes (
        id INTEGER PRIMARY KEY,
        user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        code_hash TEXT NOT NULL,
        used_at TEXT
      );
      CREATE INDEX recovery_codes_user ON recovery_codes(user_id);
      ALTER TABLE sessions ADD COLUMN user_agent TEXT;
      ALTER TABLE sessions ADD COLUMN ip TEXT;
      ALTER TABLE sessions ADD COLUMN last_used_at TEXT;
    `,
} satisfies Migration;
