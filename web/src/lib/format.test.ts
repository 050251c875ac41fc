import { describe, expect, it } from 'vitest';
import { formatBytes, formatPercent, roundPercent, truncate } from './format';

describe('formatBytes', () => {
  it('uses a 1024 base with two decimals', () => {
    expect(formatBytes(0)).toBe('0 Bytes');
    expect(formatBytes(1023)).toBe('1023 Bytes');
    expect(formatBytes(1024)).toBe('1 KB');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(123456789)).toBe('117.74 MB');
    expect(formatBytes(1024 ** 8 * 3)).toBe('3 YB');
  });
  it('stays at YB for larger values and shows - for missing ones', () => {
    expect(formatBytes(1024 ** 9)).toBe('1024 YB');
    expect(formatBytes(undefined)).toBe('-');
    expect(formatBytes(Number.NaN)).toBe('-');
  });
});

describe('percent', () => {
  it('rounds to whole numbers and treats missing values as 0', () => {
    expect(roundPercent(12.5)).toBe(13);
    expect(formatPercent(99.4)).toBe('99%');
    expect(formatPercent(null)).toBe('0%');
  });
});

describe('truncate', () => {
  it('cuts at the limit with an ellipsis', () => {
    expect(truncate('a'.repeat(130), 120)).toBe(`${'a'.repeat(120)}…`);
    expect(truncate('short', 120)).toBe('short');
  });
});
