/** One reading of a threshold rule's subject: when (ms) and what (percent, or bytes for a volume). */
export interface Reading {
  t: number;
  value: number;
}

export type Verdict = 'above' | 'below' | 'unknown';

/**
 * Whether a subject stayed above `threshold` for the whole window ending `now`, stayed at or below
 * it, or neither (mixed readings, or not watched for the whole window yet). `slackMs` is how far
 * apart readings may be: the oldest one must reach back to within it of the window's start. A
 * window of 0 judges the newest reading alone.
 */
export function judge(readings: Reading[], threshold: number, windowMs: number, now: number, slackMs: number): Verdict {
  if (!readings.length) return 'unknown';
  const start = now - windowMs;
  if (windowMs > 0 && readings[0]!.t > start + slackMs) return 'unknown';
  const inWindow = readings.filter((r) => r.t >= start);
  const judged = inWindow.length ? inWindow : readings.slice(-1);
  if (now - judged.at(-1)!.t > windowMs + slackMs) return 'unknown';
  if (judged.every((r) => r.value > threshold)) return 'above';
  if (judged.every((r) => r.value <= threshold)) return 'below';
  return 'unknown';
}

/**
 * A threshold rule's state for one subject: it fires when the verdict turns `above` and is
 * re-armed only by a `below` verdict (recovered, said once); `unknown` changes nothing.
 */
export function nextState(firing: boolean, verdict: Verdict): { firing: boolean; fire: boolean; recovered: boolean } {
  if (!firing && verdict === 'above') return { firing: true, fire: true, recovered: false };
  if (firing && verdict === 'below') return { firing: false, fire: false, recovered: true };
  return { firing, fire: false, recovered: false };
}
