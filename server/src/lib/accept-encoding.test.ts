import { describe, expect, it } from 'vitest';
import { acceptedEncoding } from './accept-encoding';

describe('acceptedEncoding', () => {
  it('prefers brotli, falls back to gzip, and honours q=0', () => {
    expect(acceptedEncoding('gzip, deflate, br')).toBe('br');
    expect(acceptedEncoding('gzip;q=0.5, br;q=0')).toBe('gzip');
    expect(acceptedEncoding('*')).toBe('gzip');
    expect(acceptedEncoding('identity')).toBeNull();
    expect(acceptedEncoding(undefined)).toBeNull();
  });
});
