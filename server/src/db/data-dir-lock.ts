import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';

const LOCK_FILE = 'berth.lock';

/** Another Berth already runs on this DATA_DIR. */
export class DataDirLockedError extends Error {
  constructor(dataDir: string) {
    super(
      `Another Berth is already running on DATA_DIR ${dataDir} (it holds ${path.join(dataDir, LOCK_FILE)}). ` +
        'Stop it first, or give this one a DATA_DIR of its own: two servers on one database lose changes.',
    );
  }
}

/**
 * Takes an exclusive lock on DATA_DIR for as long as this process runs: an SQLite file held in an
 * exclusive transaction, so the lock is the operating system's (fcntl) and goes with the process
 * however it ends (no stale lock file after a crash or a SIGKILL). Throws DataDirLockedError when
 * another process holds it. Returns the release.
 */
export function lockDataDir(dataDir: string): () => void {
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const db = new Database(path.join(dataDir, LOCK_FILE));
  try {
    db.pragma('busy_timeout = 0');
    db.pragma('locking_mode = EXCLUSIVE');
    db.exec('BEGIN EXCLUSIVE');
  } catch (err) {
    db.close();
    if ((err as { code?: string }).code?.startsWith('SQLITE_BUSY')) throw new DataDirLockedError(dataDir);
    throw err;
  }
  return () => {
    db.exec('ROLLBACK');
    db.close();
  };
}
