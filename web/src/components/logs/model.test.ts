import { describe, expect, it } from 'vitest';
import { ansiParts, foldItems, levelOf, searchRegExp, splitMatches } from './model';

const entry = (line: string) => ({ line, stream: 'stdout' as const });

describe('foldItems', () => {
  it('keeps the newest lines and counts the dropped ones', () => {
    const one = foldItems(undefined, ['1', '2', '3'].map(entry), 4);
    const two = foldItems(one, ['4', '5', '6'].map(entry), 4);
    expect(two.items.map((i) => i.line)).toEqual(['3', '4', '5', '6']);
    expect(two.dropped).toBe(2);
  });
});

describe('levelOf', () => {
  it('reads JSON fields and common prefixes', () => {
    expect(levelOf('{"level":"WARN","msg":"x"}', { level: 'WARN', msg: 'x' })).toBe('warn');
    expect(levelOf('2024-05-01 12:00:00 ERROR boom', null)).toBe('error');
    expect(levelOf('[debug] details', null)).toBe('debug');
    expect(levelOf('level=info started', null)).toBe('info');
    expect(levelOf('nothing here about errors', null)).toBeNull();
  });
});

describe('ansiParts', () => {
  it('turns colour escapes into coloured text parts, keeping markup as text', () => {
    expect(ansiParts('\u001b[31m<img src=x onerror=alert(1)>\u001b[0m')).toEqual([
      { text: '<img src=x onerror=alert(1)>', color: 'rgb(187, 0, 0)' },
    ]);
    expect(ansiParts('plain')).toEqual([{ text: 'plain' }]);
  });
});

describe('search', () => {
  it('marks hits, escapes plain text and reports a bad regex', () => {
    const re = searchRegExp({ q: 'a.b', regex: false, caseSensitive: false }) as RegExp;
    expect(splitMatches('xA.Bya.bz axb', re)).toEqual([
      { text: 'x', hit: false },
      { text: 'A.B', hit: true },
      { text: 'y', hit: false },
      { text: 'a.b', hit: true },
      { text: 'z axb', hit: false },
    ]);
    expect(searchRegExp({ q: 'a(', regex: true, caseSensitive: true })).toMatch(/Unterminated group/);
    expect(searchRegExp({ q: '', regex: true, caseSensitive: true })).toBeNull();
  });
});
