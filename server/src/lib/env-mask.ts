import { ENV_VALUE_MASK } from '@berth/contract';

export const MASK = ENV_VALUE_MASK;

/** `KEY=value` as `KEY=<mask>`; a bare `KEY` (no value given) stays as it is. */
export function maskEnvEntry(entry: string): string {
  const eq = entry.indexOf('=');
  return eq < 0 ? entry : `${entry.slice(0, eq)}=${MASK}`;
}

/** An environment as compose writes it (`['K=V', ...]` or `{K: V}`), names kept and values masked; a null value (taken from the shell) stays null. */
export function maskEnvValues<T extends string[] | Record<string, unknown>>(env: T): T {
  if (Array.isArray(env)) return env.map((e) => (typeof e === 'string' ? maskEnvEntry(e) : e)) as T;
  return Object.fromEntries(Object.entries(env).map(([k, v]) => [k, v === null ? null : MASK])) as T;
}
