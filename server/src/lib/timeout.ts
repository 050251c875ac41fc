/** Rejects with `message` if `promise` has not settled within `ms`; nothing hangs forever. */
export function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(Object.assign(new Error(message), { code: 'ETIMEDOUT' })), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** How often the stall-aware timeout looks at the clock. */
const STEP_MS = 250;

/**
 * Like withTimeout, but the time counted is the event loop's running time only: a tick that comes
 * late because the loop itself stalled (a synchronous SQLite wait, a long GC) counts as one step,
 * so a stalled Berth does not blame the peer whose answer sat unread in the socket meanwhile.
 */
export function withStallAwareTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout;
  const timeout = new Promise<never>((_, reject) => {
    let counted = 0;
    let last = Date.now();
    timer = setInterval(() => {
      const now = Date.now();
      counted += Math.min(now - last, STEP_MS);
      last = now;
      if (counted >= ms) reject(Object.assign(new Error(message), { code: 'ETIMEDOUT' }));
    }, STEP_MS);
  });
  return Promise.race([promise, timeout]).finally(() => clearInterval(timer));
}
