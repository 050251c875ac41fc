import { describe, expect, it } from 'vitest';
import { formatAge, formatBytes, formatPercent, roundPercent, truncate } from './format';

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

describe('formatAge and truncate', () => {
  it('describes ages in words', () => {
    const now = new Date('2024-01-10T12:00:00Z');
    expect(formatAge('2024-01-10T11:59:50Z', now)).toBe('just now');
    expect(formatAge('2024-01-10T11:55:00Z', now)).toBe('5 minutes ago');
    expect(formatAge(Date.parse('2024-01-07T12:00:00Z') / 1000, now)).toBe('3 days ago');
    expect(formatAge('garbage', now)).toBe('-');
  });
  it('cuts at the limit with an ellipsis', () => {
    expect(truncate('a'.repeat(130), 120)).toBe(`${'a'.repeat(120)}…`);
    expect(truncate('short', 120)).toBe('short');
  });
});
