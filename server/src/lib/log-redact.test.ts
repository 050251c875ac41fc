import { describe, expect, it } from 'vitest';
import { redactUrl } from './log-redact';

describe('redactUrl', () => {
  it.each([
    ['/api/x?token=abc', '/api/x?token=[redacted]'],
    ['/api/x?api_key=k&page=2', '/api/x?api_key=[redacted]&page=2'],
    [
      '/api/x?ACCESS_TOKEN=a&refresh-token=b&password=c&client_secret=d',
      '/api/x?ACCESS_TOKEN=[redacted]&refresh-token=[redacted]&password=[redacted]&client_secret=[redacted]',
    ],
    ['/api/x?api%5Fkey=k', '/api/x?api%5Fkey=[redacted]'],
    ['/api/x?q=token&flag', '/api/x?q=token&flag'],
    ['/api/x', '/api/x'],
    ['/api/x?token=a#frag', '/api/x?token=[redacted]#frag'],
  ])('%s', (url, expected) => {
    expect(redactUrl(url)).toBe(expected);
  });
});
