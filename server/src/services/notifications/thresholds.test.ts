import { describe, expect, it } from 'vitest';
import { judge, nextState, type Reading } from './thresholds';

const series = (now: number, values: number[], stepMs = 1000): Reading[] =>
  values.map((value, i) => ({ t: now - (values.length - 1 - i) * stepMs, value }));

describe('threshold rules', () => {
  const now = 1_000_000;
  it('judges a window: above, below, mixed, and too short a watch', () => {
    expect(judge(series(now, [90, 95, 91, 99]), 80, 3000, now, 1000)).toBe('above');
    expect(judge(series(now, [10, 20, 80]), 80, 2000, now, 1000)).toBe('below');
    expect(judge(series(now, [90, 10, 95]), 80, 2000, now, 1000)).toBe('unknown');
    // Watched for 2 s of a 10 s window: not yet known.
    expect(judge(series(now, [90, 95, 99]), 80, 10_000, now, 1000)).toBe('unknown');
    // Only readings inside the window count.
    expect(judge(series(now, [10, 10, 90, 95]), 80, 1000, now, 1000)).toBe('above');
    expect(judge([], 80, 0, now, 1000)).toBe('unknown');
    // A window of 0: the newest reading, unless it is stale.
    expect(judge(series(now, [10, 90]), 80, 0, now, 1000)).toBe('above');
    expect(judge([{ t: now - 60_000, value: 99 }], 80, 0, now, 1000)).toBe('unknown');
  });

  it('fires once, and again only after it recovered', () => {
    const verdicts = ['unknown', 'above', 'above', 'unknown', 'above', 'below', 'below', 'above', 'above'] as const;
    let firing = false;
    const fired: number[] = [];
    const recovered: number[] = [];
    verdicts.forEach((v, i) => {
      const next = nextState(firing, v);
      firing = next.firing;
      if (next.fire) fired.push(i);
      if (next.recovered) recovered.push(i);
    });
    expect(fired).toEqual([1, 7]);
    expect(recovered).toEqual([5]);
    expect(firing).toBe(true);
  });
});
