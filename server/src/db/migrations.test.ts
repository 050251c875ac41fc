import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { migrate, openDatabase, type Db } from './database';
import { migrations } from './migrations';

const dirs: string[] = [];
const dbs: Db[] = [];
afterEach(() => {
  for (const db of dbs.splice(0)) db.close();
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

const tables = (db: Db) => db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all() as string[];

describe('migrations', () => {
  // Numbers are handed out to parallel branches ahead of time, so one may land before a lower one
  // (migrate() applies every version not yet applied, whatever its place): increasing is the rule.
  it('numbers migrations in increasing order, each once', () => {
    const versions = migrations.map((m) => m.version);
    expect(versions[0]).toBe(1);
    expect(versions).toEqual([...new Set(versions)].sort((a, b) => a - b));
  });

  it('leaves no unused settings table in a new database', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'berth-db-'));
    dirs.push(dir);
    const db = openDatabase(dir);
    dbs.push(db);
    expect(tables(db)).not.toContain('settings');
    expect(tables(db)).toEqual(expect.arrayContaining(['users', 'sessions', 'api_keys', 'templates', 'template_items', 'template_variables']));
  });

  it('drops the settings table from a database made before migration 3', () => {
    const db = new Database(':memory:');
    dbs.push(db);
    db.exec('CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)');
    for (const m of migrations.filter((x) => x.version < 3)) {
      db.exec(m.sql);
      db.prepare('INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)').run(m.version, new Date().toISOString());
    }
    expect(tables(db)).toContain('settings');
    migrate(db);
    expect(tables(db)).not.toContain('settings');
    expect(db.prepare('SELECT MAX(version) FROM schema_migrations').pluck().get()).toBe(migrations.at(-1)!.version);
  });
});
