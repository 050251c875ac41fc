import { describe, expect, it } from 'vitest';
import { UrlRule } from './template';

describe('UrlRule', () => {
  it("accepts an http(s) URL with a host and a path, and says 'This is not a valid URL' otherwise", () => {
    expect(UrlRule.safeParse('https://example.test/catalogue.json').success).toBe(true);
    for (const bad of [
      'example.test/x',
      'ftp://example.test/x',
      'https://example.test',
      'https://user:pw@example.test/x',
      42,
    ]) {
      const res = UrlRule.safeParse(bad);
      expect(res.success, String(bad)).toBe(false);
      expect(res.error?.issues[0]?.message).toBe('This is not a valid URL');
    }
  });
});
