import { describe, expect, it } from 'vitest';
import { showableLogo } from './logo';

describe('showableLogo', () => {
  it('keeps https logos and drops http, relative, other schemes and garbage', () => {
    expect(showableLogo('https://example.org/a.png')).toBe('https://example.org/a.png');
    for (const src of [
      'http://example.org/a.png',
      '/a.png',
      'javascript:alert(1)',
      'ftp://x/a.png',
      'not a url',
      '',
      null,
      undefined,
    ]) {
      expect(showableLogo(src), String(src)).toBeNull();
    }
  });
});
