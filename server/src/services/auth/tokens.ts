import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { SignJWT, errors, jwtVerify } from 'jose';
import type { AppContext } from '../../context';
import { ErrorCode } from '@berth/contract';
import { UnauthorizedError } from '../../errors';
import { writePrivateFile } from './private-file';

export type TokenType = 'access' | 'refresh';

export interface TokenClaims {
  userId: number;
  type: TokenType;
  jti: string;
  sid: string;
  csrf: string;
}

export interface IssuedToken {
  token: string;
  /** The token's csrf claim; the page echoes it in X-CSRF-TOKEN. */
  csrf: string;
  jti: string;
  expiresAt: Date;
  maxAgeSeconds: number;
}

const ISSUER = 'berth';
const CHALLENGE_TYPE = 'totp_challenge';
/** Time to open the authenticator app and type a code. */
const CHALLENGE_SECONDS = 5 * 60;
const KEY_FILE = 'secret.key';

export const randomToken = (bytes: number) => crypto.randomBytes(bytes).toString('base64url');

/** DATA_DIR/keys: the signing key (and so every key derived from it), 0700, refused as a bind to every non-admin. */
export const keysDir = (dataDir: string) => path.join(dataDir, 'keys');

/**
 * Moves a key file of an older version (DATA_DIR/secret.key) into DATA_DIR/keys. A rename within
 * the folder is atomic: a crash leaves the key in one place or the other, never torn or in both.
 */
function migrateKeyFile(dataDir: string, file: string, log: AppContext['log']): void {
  const legacy = path.join(dataDir, KEY_FILE);
  if (!fs.existsSync(legacy)) return;
  if (fs.existsSync(file)) {
    log.warn({ legacy, file }, 'an old signing key file is left beside the one in keys/; the one in keys/ is used');
    return;
  }
  fs.renameSync(legacy, file);
  log.info({ file }, 'moved the signing key into the keys folder');
}

/** DATA_DIR/keys made 0700 (and narrowed to it if it was wider). */
function ensureKeysDir(dataDir: string, log: AppContext['log']): string {
  const dir = keysDir(dataDir);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  if ((fs.statSync(dir).mode & 0o077) !== 0) {
    fs.chmodSync(dir, 0o700);
    log.warn({ dir }, 'the keys folder was readable by others; its mode is now 0700');
  }
  return dir;
}

/**
 * The HS256 signing key: SECRET_KEY when set, else 32 random bytes kept (hex) in
 * DATA_DIR/keys/secret.key with mode 0600 (in a 0700 folder), made on first start and read back
 * on later starts so sessions survive a restart.
 */
export function loadSigningKey(dataDir: string, secretKey: string | undefined, log: AppContext['log']): Uint8Array {
  if (secretKey) return new TextEncoder().encode(secretKey);
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const file = path.join(ensureKeysDir(dataDir, log), KEY_FILE);
  migrateKeyFile(dataDir, file, log);
  if (!fs.existsSync(file)) {
    const key = crypto.randomBytes(32);
    writePrivateFile(file, `${key.toString('hex')}\n`);
    log.info({ file }, 'made a new token signing key');
    return key;
  }
  const text = fs.readFileSync(file, 'utf8').trim();
  if (!/^([0-9a-f]{2}){32,}$/i.test(text)) {
    throw new Error(
      `${file} is not a hex key of at least 32 bytes. Delete it and Berth makes a new one (everyone must sign in again).`,
    );
  }
  if ((fs.statSync(file).mode & 0o077) !== 0) {
    fs.chmodSync(file, 0o600);
    log.warn({ file }, 'the signing key file was readable by others; its mode is now 0600');
  }
  return Buffer.from(text, 'hex');
}

/** Signs and checks Berth's JWTs. Only HS256 with our key, our issuer and the expected type pass. */
export class TokenSigner {
  constructor(
    private readonly key: Uint8Array,
    private readonly lifetimeSeconds: Record<TokenType, number>,
  ) {}

  /**
   * A CSRF token for DISABLE_AUTH, where there is no session to carry one: a random nonce and
   * its HMAC under the signing key. Only a page that can read Berth's answers (same origin;
   * the Host check stops DNS rebinding) can get one.
   */
  openCsrfToken(): string {
    const nonce = randomToken(16);
    return `${nonce}.${this.openCsrfMac(nonce)}`;
  }

  checkOpenCsrf(header: string | string[] | undefined): boolean {
    if (typeof header !== 'string') return false;
    const [nonce, mac, extra] = header.split('.');
    if (!nonce || !mac || extra !== undefined) return false;
    const expected = Buffer.from(this.openCsrfMac(nonce));
    const given = Buffer.from(mac);
    return given.length === expected.length && crypto.timingSafeEqual(given, expected);
  }

  private openCsrfMac(nonce: string): string {
    return crypto.createHmac('sha256', this.key).update(`open-csrf:${nonce}`).digest('base64url');
  }

  async issue(type: TokenType, userId: number, sid: string): Promise<IssuedToken> {
    const jti = randomToken(16);
    const csrf = randomToken(16);
    const lifetime = this.lifetimeSeconds[type];
    const now = Math.floor(Date.now() / 1000);
    const token = await new SignJWT({ type, sid, csrf })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuer(ISSUER)
      .setSubject(String(userId))
      .setJti(jti)
      .setIssuedAt(now)
      .setExpirationTime(now + lifetime)
      .sign(this.key);
    return { token, csrf, jti, expiresAt: new Date((now + lifetime) * 1000), maxAgeSeconds: lifetime };
  }

  /**
   * The short-lived proof of a right password while the TOTP code is still to come. Its type
   * claim keeps it from ever passing as an access or refresh token (and them as it).
   */
  async issueChallenge(userId: number): Promise<string> {
    return this.issueShort(CHALLENGE_TYPE, { sub: String(userId) }, CHALLENGE_SECONDS);
  }

  /** The user a challenge was issued to; 401 when it is forged, of another type or expired. */
  async verifyChallenge(token: string): Promise<number> {
    const claims = await this.verifyShort(
      CHALLENGE_TYPE,
      token,
      'The sign-in took too long. Enter your password again.',
      'The sign-in challenge is invalid. Enter your password again.',
    );
    const userId = Number(claims.sub);
    if (!Number.isSafeInteger(userId))
      throw new UnauthorizedError('The sign-in challenge is invalid. Enter your password again.');
    return userId;
  }

  /** A signed, short-lived token of its own type carrying `claims` (string values only). */
  async issueShort(type: string, claims: Record<string, string>, lifetimeSeconds: number): Promise<string> {
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT({ ...claims, type })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuer(ISSUER)
      .setJti(randomToken(16))
      .setIssuedAt(now)
      .setExpirationTime(now + lifetimeSeconds)
      .sign(this.key);
  }

  /** The claims of a token made by issueShort with this type; a 401 with `expired` or `invalid` otherwise. */
  async verifyShort(type: string, token: string, expired: string, invalid: string): Promise<Record<string, unknown>> {
    try {
      const { payload } = await jwtVerify(token, this.key, {
        algorithms: ['HS256'],
        issuer: ISSUER,
        typ: 'JWT',
        requiredClaims: ['jti', 'iat', 'exp'],
      });
      if (payload.type === type) return payload;
    } catch (err) {
      if (err instanceof errors.JWTExpired) throw new UnauthorizedError(expired);
      if (!(err instanceof errors.JOSEError)) throw err;
    }
    throw new UnauthorizedError(invalid);
  }

  /** Throws a 401 naming what is wrong; never echoes the token. */
  async verify(token: string, type: TokenType): Promise<TokenClaims> {
    let payload;
    try {
      // The algorithm allowlist is what refuses `alg: none` and any algorithm swap.
      ({ payload } = await jwtVerify(token, this.key, {
        algorithms: ['HS256'],
        issuer: ISSUER,
        typ: 'JWT',
        requiredClaims: ['sub', 'jti', 'iat', 'exp'],
      }));
    } catch (err) {
      if (err instanceof errors.JWTExpired) throw new UnauthorizedError(`The ${type} token has expired.`);
      if (err instanceof errors.JOSEError) throw new UnauthorizedError(`The ${type} token is invalid.`);
      throw err;
    }
    if (payload.type !== type) {
      const swapped =
        type === 'access'
          ? 'A refresh token was sent where an access token is needed.'
          : 'An access token was sent where a refresh token is needed.';
      throw new UnauthorizedError(
        payload.type === 'access' || payload.type === 'refresh' ? swapped : `The ${type} token is invalid.`,
      );
    }
    const userId = Number(payload.sub);
    const { sid, csrf, jti } = payload;
    if (
      !Number.isSafeInteger(userId) ||
      typeof sid !== 'string' ||
      typeof csrf !== 'string' ||
      typeof jti !== 'string'
    ) {
      throw new UnauthorizedError(`The ${type} token is invalid.`);
    }
    return { userId, type, jti, sid, csrf };
  }
}

/** Compares the X-CSRF-TOKEN header with the token's csrf claim in constant time. */
export function assertCsrf(header: string | string[] | undefined, expected: string): void {
  if (header === undefined || header === '') {
    throw new UnauthorizedError(
      'Missing CSRF token: send the X-CSRF-TOKEN header with the value of the csrf cookie.',
      ErrorCode.csrf,
    );
  }
  const digest = (v: string) => crypto.createHash('sha256').update(v).digest();
  if (Array.isArray(header) || !crypto.timingSafeEqual(digest(header), digest(expected))) {
    throw new UnauthorizedError(
      'The CSRF token does not match this session. Reload the page and try again.',
      ErrorCode.csrf,
    );
  }
}
