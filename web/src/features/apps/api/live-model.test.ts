import { describe, expect, it } from 'vitest';
import type { StatsTick, TickNumbers } from '@berth/contract';
import { foldTicks, parseAppStream } from './live-model';

const MiB = 1024 * 1024;
const frame = (t: number, apps: StatsTick['apps'], extra: Partial<StatsTick> = {}): StatsTick => ({
  t: t * 1000,
  apps,
  ...extra,
});

describe('foldTicks', () => {
  it('gives only the apps whose numbers changed a new array, filling the seconds they kept their numbers', () => {
    const numbers = new Map<string, TickNumbers>();
    const start = foldTicks(undefined, numbers, [
      frame(10, { a: { c: 1, m: 2, u: MiB, l: 4 * MiB }, b: { c: 5, m: 6, u: MiB, l: 4 * MiB } }, { full: true }),
    ]);
    expect(start.a).toEqual([
      {
        name: 'a',
        time: new Date(10_000).toISOString(),
        cpu_percent: 1,
        mem_percent: 2,
        mem_current: MiB,
        mem_total: 4 * MiB,
      },
    ]);
    // Ticks 11 and 12 left a out (unchanged); at 13 its CPU moved.
    const next = foldTicks(start, numbers, [frame(11, { b: { c: 7 } }), frame(13, { a: { c: 3 } })]);
    expect(next.a!.map((s) => [Date.parse(s.time) / 1000, s.cpu_percent])).toEqual([
      [10, 1],
      [11, 1],
      [12, 1],
      [13, 3],
    ]);
    expect(next.b!.map((s) => s.cpu_percent)).toEqual([5, 7]);
    const quiet = foldTicks(next, numbers, [frame(14, { b: { c: 8 } })]);
    expect(quiet.a).toBe(next.a);
  });

  it('drops apps gone or left out of a full frame, and keeps at most the cap', () => {
    const numbers = new Map<string, TickNumbers>();
    const all = { c: 1, m: 1, u: 1, l: 2 };
    let series = foldTicks(undefined, numbers, [frame(1, { a: all, b: all, c: all }, { full: true })]);
    series = foldTicks(series, numbers, [frame(2, {}, { gone: ['a'] })]);
    expect(Object.keys(series).sort()).toEqual(['b', 'c']);
    series = foldTicks(series, numbers, [frame(3, { c: all }, { full: true })]);
    expect(Object.keys(series)).toEqual(['c']);
    series = foldTicks(series, numbers, [frame(100, { c: { c: 9 } })], 3);
    expect(series.c!.map((s) => [Date.parse(s.time) / 1000, s.cpu_percent])).toEqual([
      [98, 1],
      [99, 1],
      [100, 9],
    ]);
  });
});

describe('parseAppStream', () => {
  it('tells status events from items and keeps log text as it is', () => {
    const parse = parseAppStream((d) => d);
    expect(parse('{"status":"stopped","detail":"x"}', 'status')).toEqual({
      streamStatus: { status: 'stopped', detail: 'x' },
    });
    expect(parse('{"not":"parsed"}', 'update')).toBe('{"not":"parsed"}');
  });
});
