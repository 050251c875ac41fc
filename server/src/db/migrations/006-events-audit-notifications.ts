import type { Migration } from './index';

export default {
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
} satisfies Migration;
