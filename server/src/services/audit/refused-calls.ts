/** One minute's refused unauthenticated calls from one client, as the audit log keeps them. */
export interface RefusedTally {
  client: string;
  /** Start of the minute, epoch ms. */
  minute: number;
  count: number;
  /** How many of them answered each status. */
  statuses: Map<number, number>;
}

const MINUTE_MS = 60_000;
/** Clients tallied apart per minute; the rest share one tally, so a spray of addresses cannot grow memory. */
const MAX_CLIENTS = 500;
export const OTHER_CLIENTS = '(other clients)';

/**
 * Counts refused calls nobody signed in for (401s, bad bodies, throttled sign-ins...) per client
 * and minute, so anyone who reaches the port cannot fill the audit log: a flood costs one row per
 * client and minute, not one per request.
 */
export class RefusedCalls {
  private tallies = new Map<string, RefusedTally>();

  constructor(private readonly now: () => number = Date.now) {}

  add(client: string, status: number): void {
    const minute = Math.floor(this.now() / MINUTE_MS) * MINUTE_MS;
    const key = this.tallies.has(client) || this.tallies.size < MAX_CLIENTS ? client : OTHER_CLIENTS;
    let t = this.tallies.get(key);
    if (t && t.minute !== minute) {
      // A new minute for this client: the old tally is due now, not at the next sweep.
      this.due.push(t);
      t = undefined;
    }
    if (!t) {
      t = { client: key, minute, count: 0, statuses: new Map() };
      this.tallies.set(key, t);
    }
    t.count++;
    t.statuses.set(status, (t.statuses.get(status) ?? 0) + 1);
  }

  private due: RefusedTally[] = [];

  /** The tallies of minutes that are over (all of them when `all`), removed from the counter. */
  take(all = false): RefusedTally[] {
    const current = Math.floor(this.now() / MINUTE_MS) * MINUTE_MS;
    const out = this.due;
    this.due = [];
    for (const [key, t] of this.tallies) {
      if (all || t.minute < current) {
        out.push(t);
        this.tallies.delete(key);
      }
    }
    return out.sort((a, b) => a.minute - b.minute);
  }
}

/** The audit row's summary of one tally: "37 refused unauthenticated calls in one minute (401 ×30, 400 ×7)". */
export function describeTally(t: RefusedTally): string {
  const by = [...t.statuses]
    .sort((a, b) => b[1] - a[1])
    .map(([status, n]) => `${status} ×${n}`)
    .join(', ');
  return `${t.count} refused unauthenticated call${t.count === 1 ? '' : 's'} in one minute (${by})`;
}
