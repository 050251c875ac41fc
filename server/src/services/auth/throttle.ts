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
  /** Failures against one account, from all clients, that mark it as under attack. */
  accountCeiling: number;
  baseDelayMs: number;
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
  accountCeiling: 100,
  baseDelayMs: 1000,
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

  /** Counts a failure; from the `freeFailures`-th one on, each failure doubles the wait. */
  fail(key: string, now: number, freeFailures: number): Bucket {
    const b = this.get(key, now) ?? { failures: 0, lastFailure: now, blockedUntil: 0 };
    b.failures++;
    b.lastFailure = now;
    if (b.failures >= freeFailures) {
      const delay = Math.min(this.opts.baseDelayMs * 2 ** Math.min(b.failures - freeFailures, 30), this.opts.maxDelayMs);
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
 * Sign-in throttle (in memory; a restart forgets it).
 *
 * Design: the limits slow the client that fails, never the account as a whole, so the right
 * password from another client always works.
 * - Per client IP across all accounts, and per (account, client IP): a few free failures, then
 *   each failure doubles that client's wait (1 s, 2 s, 4 s … up to 15 min). A blocked attempt is
 *   answered 429 with Retry-After without checking the password and does not extend the wait.
 * - Per account from all clients: when failures pass a high ceiling (a distributed attack), the
 *   account is marked under attack and every client that fails against it backs off from its
 *   first failure instead of its fifth. A client that has not failed is never blocked, so the
 *   owner still signs in; an attacker with many addresses gets a few guesses per address per hour.
 * - At most a couple of checks per client run at once, so a burst cannot slip past the counters
 *   before the first failures are recorded.
 * A success from a client clears that client's counters (not the account's attack mark).
 */
export class LoginThrottle {
  private readonly opts: ThrottleOptions;
  private readonly byIp: Buckets;
  private readonly byClient: Buckets;
  private readonly byAccount: Buckets;
  private readonly inFlight = new Map<string, number>();

  constructor(options: Partial<ThrottleOptions> = {}, private readonly now: () => number = Date.now) {
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
    const waitMs = Math.max(this.byIp.blockedForMs(ip, now), this.byClient.blockedForMs(clientKey, now));
    if (waitMs > 0) {
      const seconds = Math.ceil(waitMs / 1000);
      throw new TooManyRequestsError(`Too many failed sign-in attempts from this address. Try again in ${seconds} second${seconds === 1 ? '' : 's'}.`, seconds);
    }
    const running = this.inFlight.get(ip) ?? 0;
    if (running >= this.opts.maxInFlightPerIp) {
      throw new TooManyRequestsError('Another sign-in from this address is still being checked. Try again in a moment.', 1);
    }
    this.inFlight.set(ip, running + 1);
    try {
      const result = await check();
      const at = this.now();
      if (result === null) {
        const underAttack = this.byAccount.fail(accountKey, at, Infinity).failures >= this.opts.accountCeiling;
        this.byIp.fail(ip, at, this.opts.perIp);
        this.byClient.fail(clientKey, at, underAttack ? 1 : this.opts.perClient);
      } else {
        this.byIp.clear(ip);
        this.byClient.clear(clientKey);
      }
      return result;
    } finally {
      const left = (this.inFlight.get(ip) ?? 1) - 1;
      if (left > 0) this.inFlight.set(ip, left);
      else this.inFlight.delete(ip);
    }
  }
}
