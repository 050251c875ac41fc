import { describe, expect, it } from 'vitest';
import { MAX_HEAL_WAIT_MS, nextHealStep } from './policy';

const policy = { enabled: true, checks: 25, max_restarts: 3, backoff_seconds: 10 };

describe('nextHealStep', () => {
  it('never waits longer than a timer can (a daily health check times 25 checks passes 24.8 days)', () => {
    const day = 24 * 3600_000;
    expect(nextHealStep(policy, 0, day, [], 0)).toEqual({ kind: 'wait_checks', ms: MAX_HEAL_WAIT_MS });
    expect(nextHealStep(policy, 24, 1000, [], 0)).toEqual({ kind: 'wait_checks', ms: 1000 });
  });
});
