import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { migrate, openDatabase, PAGE_CACHE_KIB, type Db } from './database';
import { migrations } from './migrations';

const dirs: string[] = [];
const dbs: Db[] = [];
afterEach(() => {
  for (const db of dbs.splice(0)) db.close();
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

const tables = (db: Db) => db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all() as string[];

describe('migrations', () => {
  // Numbers are handed out ahead to work done in parallel, so one may land before a lower one: strictly increasing, not gap-free.
  it('numbers migrations in strictly increasing order, starting at 1', () => {
    const versions = migrations.map((m) => m.version);
    expect(versions[0]).toBe(1);
    expect(versions).toEqual([...versions].sort((a, b) => a - b));
    expect(new Set(versions).size).toBe(versions.length);
  });

  it('leaves no unused settings table in a new database', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'berth-db-'));
    dirs.push(dir);
    const db = openDatabase(dir);
    dbs.push(db);
    expect(tables(db)).not.toContain('settings');
    // Every Berth database (this one and the stats history) is opened by openSqlite.
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('cache_size', { simple: true })).toBe(-PAGE_CACHE_KIB);
    expect(tables(db)).toEqual(
      expect.arrayContaining(['users', 'sessions', 'api_keys', 'templates', 'template_items', 'template_variables']),
    );
  });

  it('drops the settings table from a database made before migration 3', () => {
    const db = new Database(':memory:');
    dbs.push(db);
    db.exec('CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)');
    for (const m of migrations.filter((x) => x.version < 3)) {
      db.exec(m.sql);
      db.prepare('INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)').run(
        m.version,
        new Date().toISOString(),
      );
    }
    expect(tables(db)).toContain('settings');
    migrate(db);
    expect(tables(db)).not.toContain('settings');
    expect(db.prepare('SELECT MAX(version) FROM schema_migrations').pluck().get()).toBe(migrations.at(-1)!.version);
  });

  it('makes the users that exist before migration 5 admins; later users default to viewer', () => {
    const db = new Database(':memory:');
    dbs.push(db);
    db.exec('CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)');
    for (const m of migrations.filter((x) => x.version < 5)) {
      db.exec(m.sql);
      db.prepare('INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)').run(
        m.version,
        new Date().toISOString(),
      );
    }
    db.prepare(
      "INSERT INTO users (email, password_hash, created_at, updated_at) VALUES ('first@berth.test', 'x', '', '')",
    ).run();
    migrate(db);
    db.prepare(
      "INSERT INTO users (email, password_hash, created_at, updated_at) VALUES ('later@berth.test', 'x', '', '')",
    ).run();
    expect(db.prepare('SELECT email, role FROM users ORDER BY id').all()).toEqual([
      { email: 'first@berth.test', role: 'admin' },
      { email: 'later@berth.test', role: 'viewer' },
    ]);
  });
});
