import { describe, expect, it } from 'vitest';
import type { StatsSample } from '@berth/contract';
import { foldDashboard, parseAppStream } from './live-model';

const sample = (name: string, cpu: number): StatsSample => ({
  name,
  time: new Date(0).toISOString(),
  cpu_percent: cpu,
  mem_percent: 1,
  mem_current: 1,
  mem_total: 2,
});

describe('foldDashboard', () => {
  it('keeps samples per app, at most the cap, newest last', () => {
    let series = foldDashboard(
      undefined,
      [1, 2, 3].map((i) => ({ kind: 'update' as const, sample: sample('a', i) })),
      2,
    );
    series = foldDashboard(
      series,
      [
        { kind: 'update', sample: sample('b', 9) },
        { kind: 'update', sample: sample('a', 4) },
      ],
      2,
    );
    expect(series.a!.map((s) => s.cpu_percent)).toEqual([3, 4]);
    expect(series.b!.map((s) => s.cpu_percent)).toEqual([9]);
  });

  it('drops an app the stream reports removed, and brings it back when it starts again', () => {
    const start = foldDashboard(undefined, [
      { kind: 'update', sample: sample('a', 1) },
      { kind: 'update', sample: sample('b', 1) },
    ]);
    const removed = foldDashboard(start, [{ kind: 'remove', name: 'a' }]);
    expect(Object.keys(removed)).toEqual(['b']);
    expect(start.a).toHaveLength(1);
    const back = foldDashboard(removed, [{ kind: 'update', sample: sample('a', 5) }]);
    expect(back.a!.map((s) => s.cpu_percent)).toEqual([5]);
  });

  it('leaves untouched series as they were (no copy)', () => {
    const start = foldDashboard(undefined, [
      { kind: 'update', sample: sample('a', 1) },
      { kind: 'update', sample: sample('b', 1) },
    ]);
    const next = foldDashboard(start, [{ kind: 'update', sample: sample('a', 2) }]);
    expect(next.b).toBe(start.b);
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
