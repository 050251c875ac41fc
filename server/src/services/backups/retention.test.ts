import { describe, expect, it } from 'vitest';
import { expiredArchives, isoWeek } from './retention';

/** One archive per entry, ids in creation order. */
const archives = (times: string[]) => times.map((created_at, i) => ({ id: i + 1, created_at }));
const ids = (list: { id: number }[]) => list.map((a) => a.id).sort((a, b) => a - b);

describe('backup retention', () => {
  it('keeps the newest N and removes the rest', () => {
    const list = archives(['2026-01-01T01:00:00Z', '2026-01-01T02:00:00Z', '2026-01-01T03:00:00Z']);
    expect(ids(expiredArchives(list, { last: 2, daily: 0, weekly: 0 }))).toEqual([1]);
    expect(expiredArchives(list, { last: 5, daily: 0, weekly: 0 })).toEqual([]);
  });

  it('keeps the newest archive of each of the last D days that have one', () => {
    const list = archives([
      '2026-01-01T08:00:00Z', // 1: Jan 1, older
      '2026-01-01T20:00:00Z', // 2: Jan 1, newest of its day
      '2026-01-03T08:00:00Z', // 3: Jan 3 (Jan 2 has none and uses no place)
      '2026-01-04T08:00:00Z', // 4
      '2026-01-04T09:00:00Z', // 5: newest
    ]);
    // last 1 keeps 5; daily 3 keeps Jan 4 (5), Jan 3 (3), Jan 1 (2).
    expect(ids(expiredArchives(list, { last: 1, daily: 3, weekly: 0 }))).toEqual([1, 4]);
    expect(ids(expiredArchives(list, { last: 1, daily: 2, weekly: 0 }))).toEqual([1, 2, 4]);
  });

  it('keeps the newest archive of each of the last W ISO weeks, and the three rules add up', () => {
    const list = archives([
      '2025-12-22T10:00:00Z', // 1: week 2025-W52
      '2025-12-29T10:00:00Z', // 2: Monday, 2026-W01 (ISO week of Jan 1 2026, a Thursday)
      '2026-01-04T10:00:00Z', // 3: Sunday, still 2026-W01: newest of that week
      '2026-01-05T10:00:00Z', // 4: 2026-W02
      '2026-01-06T10:00:00Z', // 5: 2026-W02, newest
    ]);
    expect(ids(expiredArchives(list, { last: 1, daily: 0, weekly: 2 }))).toEqual([1, 2, 4]);
    expect(ids(expiredArchives(list, { last: 1, daily: 2, weekly: 3 }))).toEqual([2]);
  });

  it('orders by time, not by the order given, and always keeps the newest', () => {
    const list = [
      { id: 9, created_at: '2026-02-01T00:00:00Z' },
      { id: 3, created_at: '2026-03-01T00:00:00Z' },
    ];
    expect(ids(expiredArchives(list, { last: 0, daily: 0, weekly: 0 }))).toEqual([9]);
  });

  it('names ISO weeks across year ends', () => {
    expect(isoWeek(new Date('2026-01-01T12:00:00Z'))).toBe('2026-W01');
    expect(isoWeek(new Date('2025-12-29T00:00:00Z'))).toBe('2026-W01');
    expect(isoWeek(new Date('2021-01-03T23:59:59Z'))).toBe('2020-W53');
    expect(isoWeek(new Date('2024-12-30T00:00:00Z'))).toBe('2025-W01');
  });
});
