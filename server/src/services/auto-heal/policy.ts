import { AUTO_HEAL_DEFAULT, type AutoHealOverride, type AutoHealPolicy } from '@berth/contract';

/** The first override that sets a field wins, then the global default (itself over the built-in default). */
export function effectiveHeal(
  global: AutoHealOverride | null,
  ...overrides: (AutoHealOverride | null)[]
): AutoHealPolicy {
  const pick = <K extends keyof AutoHealPolicy>(k: K): AutoHealPolicy[K] => {
    for (const o of [...overrides, global]) {
      const v = o?.[k];
      if (v !== null && v !== undefined) return v as AutoHealPolicy[K];
    }
    return AUTO_HEAL_DEFAULT[k];
  };
  return {
    enabled: pick('enabled'),
    checks: pick('checks'),
    max_restarts: pick('max_restarts'),
    backoff_seconds: pick('backoff_seconds'),
  };
}

/**
 * The longest single wait: a container is looked at again after it at the latest (a long health
 * interval times many checks would pass setTimeout's 24.8-day limit, which fires at once instead).
 */
export const MAX_HEAL_WAIT_MS = 3600_000;

export type HealStep =
  | { kind: 'wait_checks'; ms: number }
  | { kind: 'wait_backoff'; ms: number }
  | { kind: 'give_up' }
  | { kind: 'restart' };

/**
 * What to do about a container whose health check failed `streak` times in a row, given the
 * restarts auto-heal made in the last hour (ms, oldest first): wait for more failed checks
 * (`intervalMs` apart), give up at the cap, wait out the back-off (`backoff_seconds` doubled for
 * each restart after the first, counted from the last one), or restart now.
 */
export function nextHealStep(
  p: AutoHealPolicy,
  streak: number,
  intervalMs: number,
  restarts: number[],
  now: number,
): HealStep {
  if (streak < p.checks)
    return { kind: 'wait_checks', ms: Math.min((p.checks - streak) * intervalMs, MAX_HEAL_WAIT_MS) };
  if (restarts.length >= p.max_restarts) return { kind: 'give_up' };
  const last = restarts.at(-1);
  if (last === undefined) return { kind: 'restart' };
  const due = last + p.backoff_seconds * 1000 * 2 ** (restarts.length - 1);
  return due > now ? { kind: 'wait_backoff', ms: Math.min(due - now, MAX_HEAL_WAIT_MS) } : { kind: 'restart' };
}
