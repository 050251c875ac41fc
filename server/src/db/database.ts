import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { migrations } from './migrations';

export type Db = Database.Database;

const DB_FILE = 'berth.db';

/**
 * SQLite's page cache per connection, KiB. better-sqlite3 builds SQLite with 16 MB; the history
 * file (~1 MB per app a day) filled it within an hour of 50 apps, +18 MiB of RSS for no speed
 * (4 simulated hours of 50 apps: 0.97 vs 0.98 ms of CPU per second of history; RSS +18 vs +4 MiB).
 * This is SQLite's own default.
 */
export const PAGE_CACHE_KIB = 2000;

/** How long a write waits for another connection's lock before giving up (SQLITE_BUSY). */
export const BUSY_TIMEOUT_MS = 200;

/** Opens a SQLite file as Berth keeps all of them: write-ahead log, a 2 MB page cache. */
export function openSqlite(file: string): Db {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma(`cache_size = -${PAGE_CACHE_KIB}`);
  return db;
}

/**
 * Opens (creating if needed) `berth.db` in the data dir, in WAL mode, and applies pending migrations.
 * The database holds password hashes and sessions, so it is 0600 whatever the data dir's mode or
 * the umask: the file is made 0600 before SQLite opens it (SQLite gives -wal and -shm the main
 * file's mode), and looser existing files are tightened.
 */
export function openDatabase(dataDir: string): Db {
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const file = path.join(dataDir, DB_FILE);
  ensurePrivate(file, true);
  for (const suffix of ['-wal', '-shm', '-journal']) ensurePrivate(file + suffix, false);
  const db = openSqlite(file);
  db.pragma('foreign_keys = ON');
  // Short: SQLite waits for a lock by blocking the event loop, so another process holding the write
  // lock must not freeze every request (health included). A request that loses answers 503
  // database_busy; audit entries and engine events wait in a queue and are retried in the background.
  db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  migrate(db);
  return db;
}

export function migrate(db: Db): void {
  db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)');
  const applied = new Set(db.prepare('SELECT version FROM schema_migrations').pluck().all() as number[]);
  for (const m of migrations) {
    if (applied.has(m.version)) continue;
    db.transaction(() => {
      db.exec(m.sql);
      db.prepare('INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)').run(
        m.version,
        new Date().toISOString(),
      );
    })();
  }
}

/** Makes `file` mode 0600: creates it empty when `create` and missing, tightens it when looser. */
function ensurePrivate(file: string, create: boolean): void {
  let fd: number;
  try {
    fd = fs.openSync(file, create ? fs.constants.O_RDWR | fs.constants.O_CREAT : fs.constants.O_RDWR, 0o600);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw err;
  }
  try {
    if ((fs.fstatSync(fd).mode & 0o077) !== 0) fs.fchmodSync(fd, 0o600);
  } finally {
    fs.closeSync(fd);
  }
}
