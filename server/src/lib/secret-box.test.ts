import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { deriveKey, open, seal } from './secret-box';

describe('secret-box', () => {
  const signing = crypto.randomBytes(32);
  const key = deriveKey(signing, 'test');

  it('opens what it sealed, with a fresh IV each time and no plaintext in the sealed text', () => {
    const a = seal(key, 'hunter2-pässword');
    expect(a).not.toContain('hunter2');
    expect(seal(key, 'hunter2-pässword')).not.toBe(a);
    expect(open(key, a)).toBe('hunter2-pässword');
  });

  it('refuses another purpose key, another signing key and altered text', () => {
    const sealed = seal(key, 'secret');
    expect(() => open(deriveKey(signing, 'other'), sealed)).toThrow();
    expect(() => open(deriveKey(crypto.randomBytes(32), 'test'), sealed)).toThrow();
    const parts = sealed.split('.');
    parts[3] = Buffer.from('tampered').toString('base64url');
    expect(() => open(key, parts.join('.'))).toThrow();
    expect(() => open(key, 'garbage')).toThrow();
  });
});
