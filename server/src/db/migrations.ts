/** Numbered, append-only. Never edit a released migration; add the next number. */
export const migrations: { version: number; sql: string }[] = [
  {
    version: 1,
    sql: `
      CREATE TABLE users (
        id INTEGER PRIMARY KEY,
        email TEXT NOT NULL UNIQUE COLLATE NOCASE,
        password_hash TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
      CREATE TABLE sessions (
        id TEXT PRIMARY KEY,
        user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        -- the one refresh token of this session that may still be used; rotated on every refresh
        refresh_jti TEXT NOT NULL,
        created_at TEXT NOT NULL,
        expires_at TEXT NOT NULL,
        revoked_at TEXT
      );
      CREATE INDEX sessions_user ON sessions(user_id);
      CREATE TABLE api_keys (
        id INTEGER PRIMARY KEY,
        user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        key_name TEXT NOT NULL,
        token_hash TEXT NOT NULL UNIQUE,
        created_at TEXT NOT NULL,
        last_used_at TEXT
      );
      CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    `,
  },
  {
    version: 2,
    // Template sources, their items (one JSON document each, normalised at import) and the
    // !variables. Ids are never reused (AUTOINCREMENT), so a bookmarked item id cannot come to
    // mean another item. The variables are seeded here, once per database: an emptied list stays empty.
    sql: `
      CREATE TABLE templates (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        title TEXT NOT NULL UNIQUE COLLATE NOCASE,
        url TEXT NOT NULL UNIQUE,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
      CREATE TABLE template_items (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        template_id INTEGER NOT NULL REFERENCES templates(id) ON DELETE CASCADE,
        position INTEGER NOT NULL,
        title TEXT NOT NULL,
        image TEXT NOT NULL,
        data TEXT NOT NULL
      );
      CREATE INDEX template_items_template ON template_items(template_id, position);
      CREATE TABLE template_variables (
        id INTEGER PRIMARY KEY,
        variable TEXT NOT NULL UNIQUE,
        replacement TEXT NOT NULL
      );
      INSERT INTO template_variables (variable, replacement) VALUES
        ('!config', '/berth/AppData/Config'),
        ('!data', '/berth/AppData/Data'),
        ('!media', '/berth/Media/'),
        ('!downloads', '/berth/Downloads/'),
        ('!music', '/berth/Media/Music'),
        ('!playlists', '/berth/Media/Playlists'),
        ('!podcasts', '/berth/Media/Podcasts'),
        ('!books', '/berth/Media/Books'),
        ('!comics', '/berth/Media/Comics'),
        ('!tv', '/berth/Media/TV'),
        ('!movies', '/berth/Media/Movies'),
        ('!pictures', '/berth/Media/Photos'),
        ('!localtime', '/etc/localtime'),
        ('!logs', '/berth/AppData/Logs'),
        ('!PUID', '1000'),
        ('!PGID', '100');
    `,
  },
  {
    version: 3,
    // Migration 1 made a key/value `settings` table that nothing ever read or wrote.
    sql: `DROP TABLE IF EXISTS settings;`,
  },
  {
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
  },
  {
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
  },
  {
    version: 6,
    // The engine event history, the audit log and notifications (issue 18). Times are Unix
    // milliseconds so range filters and retention are integer comparisons. Channel secrets are
    // sealed (lib/secret-box.ts); deliveries keep the channel's name so history outlives it.
    sql: `
      CREATE TABLE engine_events (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        time INTEGER NOT NULL,
        environment TEXT NOT NULL,
        type TEXT NOT NULL,
        action TEXT NOT NULL,
        actor_id TEXT NOT NULL,
        name TEXT NOT NULL,
        attributes TEXT NOT NULL
      );
      CREATE INDEX engine_events_time ON engine_events(environment, time);
      CREATE INDEX engine_events_name ON engine_events(environment, name, time);
      CREATE TABLE audit_log (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        time INTEGER NOT NULL,
        user TEXT,
        client TEXT NOT NULL,
        method TEXT NOT NULL,
        route TEXT NOT NULL,
        target TEXT,
        status INTEGER NOT NULL,
        summary TEXT NOT NULL
      );
      CREATE INDEX audit_log_time ON audit_log(time);
      CREATE TABLE notification_channels (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        name TEXT NOT NULL UNIQUE COLLATE NOCASE,
        type TEXT NOT NULL,
        settings TEXT NOT NULL,
        sealed_secrets TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
      CREATE TABLE notification_rules (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        event TEXT NOT NULL,
        channels TEXT NOT NULL,
        scope TEXT NOT NULL,
        quiet_minutes INTEGER NOT NULL,
        restarts INTEGER NOT NULL,
        within_minutes INTEGER NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      );
      CREATE TABLE notification_deliveries (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        time INTEGER NOT NULL,
        channel_id INTEGER,
        channel_name TEXT NOT NULL,
        event TEXT NOT NULL,
        title TEXT NOT NULL,
        status TEXT NOT NULL,
        attempts INTEGER NOT NULL,
        error TEXT,
        updated_at INTEGER NOT NULL
      );
      CREATE INDEX notification_deliveries_time ON notification_deliveries(time);
    `,
  },
  {
    version: 8,
    // Auto-update: the global policy (scope 'global', target ''), per-app overrides (null = follow
    // the global policy), image digests that failed the health gate (not retried) and run history.
    sql: `
      CREATE TABLE auto_update_policies (
        env TEXT NOT NULL,
        scope TEXT NOT NULL,
        target TEXT NOT NULL,
        enabled INTEGER,
        mode TEXT,
        schedule TEXT,
        settle_seconds INTEGER,
        PRIMARY KEY (env, scope, target)
      );
      CREATE TABLE auto_update_bad_digests (
        env TEXT NOT NULL,
        target TEXT NOT NULL,
        digest TEXT NOT NULL,
        recorded_at TEXT NOT NULL,
        PRIMARY KEY (env, target, digest)
      );
      CREATE TABLE auto_update_runs (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        env TEXT NOT NULL,
        trigger TEXT NOT NULL,
        started_at TEXT NOT NULL,
        finished_at TEXT,
        results TEXT NOT NULL
      );
    `,
  },
];
