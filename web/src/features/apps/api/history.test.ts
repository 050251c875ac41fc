import { describe, expect, it } from 'vitest';
import type { HistorySample, StatsSample } from '@berth/contract';
import { chartColumns, mergeHistory, rangeContaining } from './history';

const kept = (sec: number, cpu: number): HistorySample => ({
  time: new Date(sec * 1000).toISOString(),
  cpu_percent: cpu,
  cpu_max: cpu,
  mem_current: 1,
  mem_max: 1,
});
const live = (ms: number, cpu: number): StatsSample => ({
  name: 'a',
  time: new Date(ms).toISOString(),
  cpu_percent: cpu,
  mem_percent: 1,
  mem_current: 1,
  mem_total: 100,
});

describe('mergeHistory', () => {
  it('extends the kept history with newer live samples only, within the window', () => {
    const history = [kept(1000, 1), kept(1001, 2), kept(1002, 3)];
    const merged = mergeHistory(history, [live(1001_500, 9), live(1002_400, 9), live(1003_200, 4)], 3, 1004_000);
    expect(merged.map((p) => [Date.parse(p.time) / 1000, p.cpu_percent])).toEqual([
      [1001, 2],
      [1002, 3],
      [1003.2, 4],
    ]);
  });
});

describe('chartColumns', () => {
  it('puts a null (a break in the line, never a 0) where points are more than three steps apart', () => {
    const points = [kept(1000, 5), kept(1001, 6), kept(1002, 7), kept(1010, 8), kept(1011, 9)];
    const { times, values } = chartColumns(points, 1, [(p) => p.cpu_percent, (p) => p.cpu_max]);
    expect(times).toEqual([1000, 1001, 1002, 1003, 1010, 1011]);
    expect(values).toEqual([
      [5, 6, 7, null, 8, 9],
      [5, 6, 7, null, 8, 9],
    ]);
  });
});

describe('rangeContaining', () => {
  it('picks the shortest kept range holding the moment with a minute before it, none past 7 days', () => {
    const now = Date.parse('2026-01-10T12:00:00Z');
    expect(rangeContaining(now - 30_000, now)).toBe('10m');
    expect(rangeContaining(now - 9.5 * 60_000, now)).toBe('1h');
    expect(rangeContaining(now - 5 * 3600_000, now)).toBe('24h');
    expect(rangeContaining(now - 3 * 86_400_000, now)).toBe('7d');
    expect(rangeContaining(now - 8 * 86_400_000, now)).toBeNull();
  });
});
