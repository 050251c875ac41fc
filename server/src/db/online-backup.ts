import Database from 'better-sqlite3';

/**
 * A consistent copy of the SQLite file `from` written to `to`, through SQLite's online backup API
 * on a read-only connection of its own: the running Berth keeps writing meanwhile (WAL), and the
 * copy is the database as of one moment, never a torn file.
 */
export async function copySqlite(from: string, to: string): Promise<void> {
  const db = new Database(from, { readonly: true, fileMustExist: true });
  try {
    await db.backup(to);
  } finally {
    db.close();
  }
}
