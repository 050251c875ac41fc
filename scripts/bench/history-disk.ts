// Disk use of the stats history per app, for the apps bench's [4].
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { StatsHistoryRepo } from '../../server/src/db/stats-history-repo';
import { KEEP_SECONDS } from '../../server/src/services/stats/stats-history';

/**
 * Two days of 1 s readings for a few apps written the way the recorder writes them (a batch a
 * minute here, purged each minute), the file checked after each day with its write-ahead log folded in.
 */
export function historyDiskPerApp(): { firstDay: number; nextDay: number } {
  const APPS = 2;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'berth-bench-history-'));
  try {
    const file = path.join(dir, 'stats-history.db');
    const t0 = Math.floor(Date.now() / 1000 / 86400) * 86400 - 7 * 86400;
    const sizes: number[] = [];
    for (let day = 0; day < 2; day++) {
      const repo = new StatsHistoryRepo(dir);
      for (let m = 0; m < 1440; m++) {
        const minute = t0 + day * 86400 + m * 60;
        const points = Array.from({ length: 60 * APPS }, (_, i) => ({
          env: 'local',
          app: `app-${i % APPS}`,
          time: minute + Math.floor(i / APPS),
          cpu: Math.random() * 100,
          mem: 5e7 + Math.random() * 1e7,
        }));
        repo.add(points);
        repo.purge(minute + 60, KEEP_SECONDS);
      }
      repo.close(); // folds the write-ahead log into the file
      sizes.push(fs.statSync(file).size);
    }
    return { firstDay: sizes[0]! / APPS, nextDay: (sizes[1]! - sizes[0]!) / APPS };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
