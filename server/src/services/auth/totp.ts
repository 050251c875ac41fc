import crypto from 'node:crypto';
import type { TotpSetup } from '@berth/contract';
import type { UserRow, UsersRepo } from '../../db/users-repo';
import { ConflictError, UnauthorizedError } from '../../errors';
import type { LoginThrottle } from './throttle';

const ISSUER = 'Berth';
/** One period either side: a phone clock a little off still works. */
const TOLERANCE_SECONDS = 30;
const RECOVERY_CODES = 10;
/** 16 Crockford-style characters: 80 random bits, so a fast hash is enough to store them. */
const RECOVERY_ALPHABET = 'ABCDEFGHJKMNPQRSTVWXYZ0123456789';

const sha256 = (text: string) => crypto.createHash('sha256').update(text).digest('hex');
/** Case, spaces and dashes do not matter when typing a recovery code. */
const normalise = (code: string) => code.replace(/[\s-]/g, '').toUpperCase();

function recoveryCode(): string {
  const chars = Array.from(crypto.randomBytes(16), (b) => RECOVERY_ALPHABET[b % RECOVERY_ALPHABET.length]).join('');
  return chars.match(/.{4}/g)!.join('-');
}

/**
 * TOTP (RFC 6238) second factor through otplib: setup stores a new secret that only counts once
 * a code from the app enables it; each accepted time step is recorded, so a code cannot be used
 * twice. Ten one-time recovery codes are shown once at enable and stored as SHA-256 hashes.
 * Every check goes through a throttle of its own, like passwords (per client and per account).
 */
export class TotpService {
  constructor(
    private readonly repo: UsersRepo,
    private readonly throttle: LoginThrottle,
  ) {}

  async setup(user: UserRow): Promise<TotpSetup> {
    if (user.totp_enabled_at !== null)
      throw new ConflictError('TOTP is already on. Turn it off first to set up a new authenticator.');
    // Loaded on first use: most installs never turn TOTP on (otplib and qrcode cost memory).
    const [{ generateSecret, generateURI }, { default: QRCode }] = await Promise.all([
      import('otplib'),
      import('qrcode'),
    ]);
    const secret = generateSecret();
    this.repo.setTotpSecret(user.id, secret);
    const otpauthUrl = generateURI({ issuer: ISSUER, label: user.email, secret });
    const svg = await QRCode.toString(otpauthUrl, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
    return { secret, otpauth_url: otpauthUrl, qr: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}` };
  }

  /** Turns TOTP on with a code for the pending secret; returns the recovery codes (shown once). */
  async enable(user: UserRow, code: string, ip: string): Promise<string[]> {
    if (user.totp_enabled_at !== null) throw new ConflictError('TOTP is already on.');
    if (user.totp_secret === null) throw new ConflictError('Start the setup first (POST /api/auth/totp/setup).');
    const step = await this.throttled(ip, user.email, () => this.matchStep(user.totp_secret!, code, null));
    const codes = Array.from({ length: RECOVERY_CODES }, recoveryCode);
    this.repo.enableTotp(
      user.id,
      step,
      codes.map((c) => sha256(normalise(c))),
    );
    return codes;
  }

  /** Checks a second factor of a user with TOTP on: a fresh code or an unused recovery code (used up here). */
  async check(user: UserRow, factor: { code?: string; recovery_code?: string }, ip: string): Promise<void> {
    await this.throttled(ip, user.email, async () => {
      if (factor.code !== undefined && /^\d{6}$/.test(factor.code.trim())) {
        const step = await this.matchStep(user.totp_secret ?? '', factor.code.trim(), user.totp_last_step);
        // Compare-and-set: of two sign-ins racing with the same code, one wins.
        return step !== null && this.repo.useTotpStep(user.id, step) ? true : null;
      }
      return this.useRecoveryCode(user.id, factor.recovery_code ?? factor.code ?? '') ? true : null;
    });
  }

  disable(userId: number): void {
    this.repo.setTotpSecret(userId, null);
  }

  private async throttled<T>(ip: string, email: string, check: () => Promise<T | null>): Promise<T> {
    const result = await this.throttle.attempt(ip, email, check);
    if (result === null) throw new UnauthorizedError('Wrong or already used code.');
    return result;
  }

  /** The time step a code matches (after `after`, so a used step is refused), or null. */
  private async matchStep(secret: string, code: string, after: number | null): Promise<number | null> {
    const { verify } = await import('otplib');
    const result = await verify({
      secret,
      token: code,
      epochTolerance: TOLERANCE_SECONDS,
      ...(after !== null ? { afterTimeStep: after } : {}),
    });
    return result.valid && 'timeStep' in result ? result.timeStep : null;
  }

  private useRecoveryCode(userId: number, code: string): boolean {
    const given = Buffer.from(sha256(normalise(code)));
    const match = this.repo
      .unusedRecoveryCodes(userId)
      .find((row) => crypto.timingSafeEqual(Buffer.from(row.code_hash), given));
    return match !== undefined && this.repo.useRecoveryCode(match.id);
  }
}
