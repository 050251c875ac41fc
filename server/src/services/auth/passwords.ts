import crypto from 'node:crypto';
import argon2 from 'argon2';
import { NewPassword } from '@berth/contract';
import { ValidationError } from '../../errors';

/**
 * OWASP's argon2id baseline (19 MiB, 2 passes, 1 lane): strong, yet light enough for the small
 * hosts Berth runs on (a NAS, a Raspberry Pi).
 */
const HASH_OPTIONS = { type: argon2.argon2id, memoryCost: 19 * 1024, timeCost: 2, parallelism: 1 } as const;

/**
 * At most this many hashes run at once. Each one holds 19 MiB, so a burst of sign-in requests
 * queues here instead of exhausting memory.
 */
const MAX_CONCURRENT = 2;

/** argon2id hashing with a concurrency cap; unknown users are verified against a dummy hash. */
export class PasswordHasher {
  private running = 0;
  private readonly waiting: (() => void)[] = [];
  private dummy: Promise<string> | null = null;

  async hash(password: string): Promise<string> {
    assertPasswordPolicy(password);
    return this.limited(() => argon2.hash(password, HASH_OPTIONS));
  }

  async verify(hash: string, password: string): Promise<boolean> {
    return this.limited(() => argon2.verify(hash, password));
  }

  /** Spends the same time as a real verify so unknown accounts cannot be told apart by timing. */
  async verifyDummy(password: string): Promise<false> {
    this.dummy ??= this.limited(() => argon2.hash(crypto.randomBytes(16).toString('base64url'), HASH_OPTIONS));
    await this.verify(await this.dummy, password);
    return false;
  }

  private async limited<T>(fn: () => Promise<T>): Promise<T> {
    // A finishing task hands its slot straight to the next waiter, so the cap holds even when
    // a new caller arrives between the release and the waiter resuming.
    if (this.running >= MAX_CONCURRENT) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.running++;
    try {
      return await fn();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }
}

/** The contract's password rule (length, not only whitespace, no control characters). */
export function assertPasswordPolicy(password: string): void {
  const issues = NewPassword.safeParse(password).error?.issues;
  if (issues?.length) {
    const message = issues.map((i) => i.message).join(' ');
    throw new ValidationError(`password: ${message}`, [{ field: 'password', message }]);
  }
}
