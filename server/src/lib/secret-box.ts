import crypto from 'node:crypto';

/**
 * Secrets at rest (notification channel passwords and tokens, environment keys): AES-256-GCM
 * with a key derived from Berth's signing key by HKDF, one `purpose` per kind of secret so one
 * leaked derived key opens nothing else. A sealed value is `v1.<iv>.<tag>.<ciphertext>`
 * (base64url); a changed signing key makes every sealed value unreadable (open throws).
 */
const VERSION = 'v1';
const IV_BYTES = 12;

/** A 32-byte key for `purpose` (e.g. "notification-channels") from the signing key. */
export function deriveKey(signingKey: Uint8Array, purpose: string): Buffer {
  return Buffer.from(crypto.hkdfSync('sha256', signingKey, Buffer.alloc(0), `berth secret-box ${purpose}`, 32));
}

export function seal(key: Uint8Array, plaintext: string): string {
  const iv = crypto.randomBytes(IV_BYTES);
  const cipher = crypto.createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return [VERSION, iv, cipher.getAuthTag(), body]
    .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
    .join('.');
}

/** The plaintext of `sealed`; throws when it was sealed under another key or was altered. */
export function open(key: Uint8Array, sealed: string): string {
  const [version, iv, tag, body] = sealed.split('.');
  if (version !== VERSION || iv === undefined || tag === undefined || body === undefined)
    throw new Error('not a sealed value');
  const decipher = crypto.createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
}
