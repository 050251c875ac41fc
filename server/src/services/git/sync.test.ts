import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { verifyHook } from './sync';

const secret = 'the-secret';
const body = Buffer.from('{"ref":"refs/heads/main"}');
const mac = (key: string) => createHmac('sha256', key).update(body).digest('hex');

describe('verifyHook', () => {
  it('accepts each provider header carrying proof of the secret, and refuses a wrong or missing one', () => {
    expect(verifyHook(secret, { 'x-hub-signature-256': `sha256=${mac(secret)}` }, body)).toBe(true);
    expect(verifyHook(secret, { 'x-berth-signature': `sha256=${mac(secret)}` }, body)).toBe(true);
    expect(verifyHook(secret, { 'x-gitea-signature': mac(secret) }, body)).toBe(true);
    expect(verifyHook(secret, { 'x-forgejo-signature': mac(secret) }, body)).toBe(true);
    expect(verifyHook(secret, { 'x-gitlab-token': secret }, body)).toBe(true);
    expect(verifyHook(secret, { 'x-hub-signature-256': `sha256=${mac('other')}` }, body)).toBe(false);
    expect(verifyHook(secret, { 'x-berth-signature': mac(secret) }, body)).toBe(false);
    expect(verifyHook(secret, { 'x-gitlab-token': 'other' }, body)).toBe(false);
    expect(verifyHook(secret, {}, body)).toBe(false);
  });
});
