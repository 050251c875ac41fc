import { describe, expect, it } from 'vitest';
import { TooManyRequestsError } from '../../errors';
import { LoginThrottle } from './throttle';

/** The throttle with a clock the test moves; each failure comes from a new address so only the account cap applies. */
function setup() {
  let now = 1_000_000;
  const throttle = new LoginThrottle({}, () => now);
  let n = 0;
  const fail = () =>
    throttle.attempt(`10.0.${Math.floor(n / 250)}.${(n++ % 250) + 1}`, 'admin@berth.test', async () => null);
  const waitSeconds = async () => {
    try {
      await throttle.attempt('192.0.2.1', 'Admin@Berth.test', async () => ({ ok: true }));
      return 0;
    } catch (err) {
      if (err instanceof TooManyRequestsError) return err.retryAfterSeconds;
      throw err;
    }
  };
  return { fail, waitSeconds, advance: (ms: number) => (now += ms) };
}

describe('LoginThrottle per-account cap', () => {
  it('after 10 failures an account waits 30 s, doubling with each further failure up to 15 min', async () => {
    const { fail, waitSeconds, advance } = setup();
    for (let i = 0; i < 9; i++) await fail();
    expect(await waitSeconds()).toBe(0); // nine failures: the right password still works (and resets the count)
    for (let i = 0; i < 10; i++) await fail();
    expect(await waitSeconds()).toBe(30);
    const waits: number[] = [];
    for (let i = 0; i < 7; i++) {
      advance((await waitSeconds()) * 1000);
      await fail();
      waits.push(await waitSeconds());
    }
    expect(waits).toEqual([60, 120, 240, 480, 900, 900, 900]);
  });

  it('a blocked attempt does not reach the password check or extend the wait', async () => {
    const { fail, waitSeconds, advance } = setup();
    for (let i = 0; i < 10; i++) await fail();
    advance(10_000);
    await expect(fail()).rejects.toBeInstanceOf(TooManyRequestsError);
    expect(await waitSeconds()).toBe(20);
  });
});
