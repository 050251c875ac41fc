import fs from 'node:fs';
import path from 'node:path';
import type Database from 'better-sqlite3';
import { openSqlite } from './database';

/**
 * Stats history lives in its own file, `stats-history.db` beside berth.db: it is written every
 * second, so its WAL churn, purges and size stay out of the database that holds accounts and
 * settings (and out of their backups). It can be deleted at any time; only history is lost.
 */
const FILE = 'stats-history.db';
const SCHEMA_VERSION = 1;

/** One bucket of one resolution: the sums make means exact when buckets are merged. */
export interface HistoryBucket {
  /** Bucket start, seconds since the epoch. */
  t: number;
  n: number;
  cpuSum: number;
  cpuMax: number;
  memSum: number;
  memMax: number;
}

export interface HistoryPoint {
  env: string;
  app: string;
  /** Seconds since the epoch. */
  time: number;
  cpu: number;
  mem: number;
}

/** Seconds per bucket of each kept resolution. */
export const RESOLUTIONS = [1, 10, 60] as const;
export type Resolution = (typeof RESOLUTIONS)[number];

export class StatsHistoryRepo {
  private readonly db: Database.Database;
  private readonly upsert: Database.Statement;

  constructor(dataDir: string) {
    fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    this.db = openSqlite(path.join(dataDir, FILE));
    // History may lose its last second on a power cut; it must not cost an fsync per second.
    this.db.pragma('synchronous = NORMAL');
    if ((this.db.pragma('user_version', { simple: true }) as number) < SCHEMA_VERSION) {
      this.db.exec(`
        CREATE TABLE IF NOT EXISTS samples (
          env TEXT NOT NULL,
          app TEXT NOT NULL,
          res INTEGER NOT NULL,
          t INTEGER NOT NULL,
          n INTEGER NOT NULL,
          cpu_sum REAL NOT NULL,
          cpu_max REAL NOT NULL,
          mem_sum REAL NOT NULL,
          mem_max REAL NOT NULL,
          PRIMARY KEY (env, app, res, t)
        ) WITHOUT ROWID;
        CREATE INDEX IF NOT EXISTS samples_age ON samples (res, t);
        PRAGMA user_version = ${SCHEMA_VERSION};
      `);
    }
    this.upsert = this.db.prepare(`
      INSERT INTO samples (env, app, res, t, n, cpu_sum, cpu_max, mem_sum, mem_max) VALUES (?, ?, ?, ?, 1, ?, ?, ?, ?)
      ON CONFLICT (env, app, res, t) DO UPDATE SET
        n = n + 1, cpu_sum = cpu_sum + excluded.cpu_sum, cpu_max = max(cpu_max, excluded.cpu_max),
        mem_sum = mem_sum + excluded.mem_sum, mem_max = max(mem_max, excluded.mem_max)`);
  }

  /** Adds each point to its bucket of every resolution, in one transaction. */
  add(points: HistoryPoint[]): void {
    this.db.transaction(() => {
      for (const p of points) {
        for (const res of RESOLUTIONS)
          this.upsert.run(p.env, p.app, res, p.time - (p.time % res), p.cpu, p.cpu, p.mem, p.mem);
      }
    })();
  }

  buckets(env: string, app: string, res: Resolution, since: number): HistoryBucket[] {
    return this.db
      .prepare(
        'SELECT t, n, cpu_sum AS cpuSum, cpu_max AS cpuMax, mem_sum AS memSum, mem_max AS memMax FROM samples WHERE env = ? AND app = ? AND res = ? AND t >= ? ORDER BY t',
      )
      .all(env, app, res, since) as HistoryBucket[];
  }

  /** Drops buckets older than their resolution keeps (`keepSeconds` per resolution); apps gone that long vanish with them. */
  purge(now: number, keepSeconds: Record<Resolution, number>): number {
    const del = this.db.prepare('DELETE FROM samples WHERE res = ? AND t < ?');
    let removed = 0;
    this.db.transaction(() => {
      for (const res of RESOLUTIONS) removed += del.run(res, now - keepSeconds[res]).changes;
    })();
    return removed;
  }

  close(): void {
    this.db.close();
  }
}
