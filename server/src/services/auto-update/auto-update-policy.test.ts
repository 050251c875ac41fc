import { describe, expect, it } from 'vitest';
import { migrate, openSqlite } from '../../db/database';
import { AutoUpdateRepo } from '../../db/auto-update-repo';
import { checkSchedule, DEFAULT_POLICY, effectivePolicy } from './auto-update-policy';

describe('auto-update schedules and history (issue 38 #15)', () => {
  it('refuses any schedule that would run more often than every 5 minutes, and ignores such a label', () => {
    for (const fast of ['* * * * * *', '* * * * *', '*/4 * * * *', '0,1 4 * * *'])
      expect(() => checkSchedule(fast), fast).toThrow(/more often than every 300 seconds/);
    for (const ok of ['*/5 * * * *', '0 4 * * *', '0 */6 * * *']) expect(() => checkSchedule(ok), ok).not.toThrow();
    const labels = { 'berth.auto-update': 'true', 'berth.auto-update.schedule': '* * * * * *' };
    expect(effectivePolicy(DEFAULT_POLICY, null, labels).schedule).toBe(DEFAULT_POLICY.schedule);
  });

  it('keeps the newest runs only, and none older than the age limit', () => {
    const db = openSqlite(':memory:');
    migrate(db);
    const repo = new AutoUpdateRepo(db, 'local');
    const other = new AutoUpdateRepo(db, 'elsewhere');
    for (let i = 0; i < 30; i++) repo.saveResults(repo.startRun(`run ${i}`), [], true);
    other.saveResults(other.startRun('kept'), [], true);
    expect(repo.pruneRuns(10, '1970-01-01T00:00:00.000Z')).toBe(20);
    expect(repo.runs(100).map((r) => r.trigger)).toEqual(Array.from({ length: 10 }, (_, i) => `run ${29 - i}`));
    expect(repo.pruneRuns(10, new Date(Date.now() + 1000).toISOString())).toBe(10);
    expect(repo.runs(100)).toEqual([]);
    expect(other.runs(100)).toHaveLength(1);
    db.close();
  });
});
