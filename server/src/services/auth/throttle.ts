import { TooManyRequestsError } from '../../errors';

interface Bucket {
  failures: number;
  lastFailure: number;
  blockedUntil: number;
}

export interface ThrottleOptions {
  /** Failures one client may make against one account before backoff starts. */
  perClient: number;
  /** Failures one client may make across all accounts before backoff starts. */
  perIp: number;
  /** Failures against one account, from all clients, before the account itself backs off. */
  perAccount: number;
  baseDelayMs: number;
  /** The first wait of an account that reached `perAccount`; it doubles with each further failure. */
  accountBaseDelayMs: number;
  maxDelayMs: number;
  /** A bucket is forgotten this long after its last failure. */
  windowMs: number;
  /** Sign-ins from one client being checked at the same time. */
  maxInFlightPerIp: number;
  maxEntries: number;
}

const DEFAULTS: ThrottleOptions = {
  perClient: 5,
  perIp: 10,
  perAccount: 10,
  baseDelayMs: 1000,
  accountBaseDelayMs: 30_000,
  maxDelayMs: 15 * 60_000,
  windowMs: 60 * 60_000,
  maxInFlightPerIp: 2,
  maxEntries: 50_000,
};

/** Failure counters keyed by a string, with exponential backoff; memory is bounded. */
class Buckets {
  private readonly map = new Map<string, Bucket>();

  constructor(private readonly opts: ThrottleOptions) {}

  get(key: string, now: number): Bucket | undefined {
    const b = this.map.get(key);
    if (b && b.blockedUntil <= now && now - b.lastFailure > this.opts.windowMs) {
      this.map.delete(key);
      return undefined;
    }
    return b;
  }

  blockedForMs(key: string, now: number): number {
    return Math.max(0, (this.get(key, now)?.blockedUntil ?? 0) - now);
  }

  /** Counts a failure; from the `freeFailures`-th one on, each failure doubles the wait (from `baseDelayMs`). */
  fail(key: string, now: number, freeFailures: number, baseDelayMs = this.opts.baseDelayMs): Bucket {
    const b = this.get(key, now) ?? { failures: 0, lastFailure: now, blockedUntil: 0 };
    b.failures++;
    b.lastFailure = now;
    if (b.failures >= freeFailures) {
      const delay = Math.min(baseDelayMs * 2 ** Math.min(b.failures - freeFailures, 30), this.opts.maxDelayMs);
      b.blockedUntil = now + delay;
    }
    this.map.delete(key);
    this.map.set(key, b); // re-insert: the map's order is then least recently failed first
    this.evict(now);
    return b;
  }

  clear(key: string): void {
    this.map.delete(key);
  }

  private evict(now: number): void {
    if (this.map.size <= this.opts.maxEntries) return;
    for (const key of this.map.keys()) {
      if (this.map.size <= this.opts.maxEntries) break;
      this.get(key, now);
    }
    while (this.map.size > this.opts.maxEntries) this.map.delete(this.map.keys().next().value as string);
  }
}

/**
 * Sign-in throttle (in memory; a restart forgets it). It also guards re-authentication (the
 * current password asked before sensitive changes), so a leaked key cannot guess it either.
 *
 * - Per client IP across all accounts, and per (account, client IP): a few free failures, then
 *   each failure doubles that client's wait (1 s, 2 s, 4 s … up to 15 min). A blocked attempt is
 *   answered 429 with Retry-After without checking the password and does not extend the wait.
 * - Per account from all clients: after 10 failures the account itself waits 30 s, doubling
 *   with each further failure up to 15 min, whatever address the guesses come from (rotating
 *   addresses or a forged X-Forwarded-For gain nothing). The owner is locked out of *new*
 *   sign-ins for that long, but sessions and refresh tokens they already hold keep working.
 * - At most a couple of checks per client run at once, so a burst cannot slip past the counters
 *   before the first failures are recorded.
 * A success clears that client's counters and the account's.
 */
export class LoginThrottle {
  private readonly opts: ThrottleOptions;
  private readonly byIp: Buckets;
  private readonly byClient: Buckets;
  private readonly byAccount: Buckets;
  private readonly inFlight = new Map<string, number>();

  constructor(
    options: Partial<ThrottleOptions> = {},
    private readonly now: () => number = Date.now,
  ) {
    this.opts = { ...DEFAULTS, ...options };
    this.byIp = new Buckets(this.opts);
    this.byClient = new Buckets(this.opts);
    this.byAccount = new Buckets(this.opts);
  }

  /** Runs one sign-in check for `account` from `ip`; `check` returns null for wrong credentials. */
  async attempt<T>(ip: string, account: string, check: () => Promise<T | null>): Promise<T | null> {
    const accountKey = account.trim().toLowerCase();
    const clientKey = `${accountKey}\n${ip}`;
    const now = this.now();
    const accountWaitMs = this.byAccount.blockedForMs(accountKey, now);
    if (accountWaitMs > 0) {
      const seconds = Math.ceil(accountWaitMs / 1000);
      throw new TooManyRequestsError(
        `Too many failed sign-in attempts for this account. Try again in ${seconds} second${seconds === 1 ? '' : 's'}.`,
        seconds,
      );
    }
    const waitMs = Math.max(this.byIp.blockedForMs(ip, now), this.byClient.blockedForMs(clientKey, now));
    if (waitMs > 0) {
      const seconds = Math.ceil(waitMs / 1000);
      throw new TooManyRequestsError(
        `Too many failed sign-in attempts from this address. Try again in ${seconds} second${seconds === 1 ? '' : 's'}.`,
        seconds,
      );
    }
    const running = this.inFlight.get(ip) ?? 0;
    if (running >= this.opts.maxInFlightPerIp) {
      throw new TooManyRequestsError(
        'Another sign-in from this address is still being checked. Try again in a moment.',
        1,
      );
    }
    this.inFlight.set(ip, running + 1);
    try {
      const result = await check();
      const at = this.now();
      if (result === null) {
        this.byAccount.fail(accountKey, at, this.opts.perAccount, this.opts.accountBaseDelayMs);
        this.byIp.fail(ip, at, this.opts.perIp);
        this.byClient.fail(clientKey, at, this.opts.perClient);
      } else {
        this.byIp.clear(ip);
        this.byClient.clear(clientKey);
        this.byAccount.clear(accountKey);
      }
      return result;
    } finally {
      const left = (this.inFlight.get(ip) ?? 1) - 1;
      if (left > 0) this.inFlight.set(ip, left);
      else this.inFlight.delete(ip);
    }
  }
}
