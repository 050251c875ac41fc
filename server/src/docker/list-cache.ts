import type { FastifyBaseLogger } from 'fastify';
import type { ContainerListEntry, Engine } from './engine';
import { parseEngineEvent, type EngineEvents, type EngineObjectEvent } from './events';
import { NotFoundError } from '../errors';

/** The engine keeps its last 256 events for replays (moby's daemon/events eventsLimit, 1.13 to 28). */
const ENGINE_EVENT_BUFFER = 256;
/**
 * A replay starts this long before the last read that proved the cache current. The engine stamps
 * an event's time just before it stores it; this covers the delay between the two (microseconds
 * normally, far less than a second under heavy load).
 */
const SKEW_MS = 2000;
const REPLAY_TIMEOUT_MS = 5000;
/** Container inspections in flight at once while waiting for the engine to save what events announced. */
const SETTLE_AT_ONCE = 8;
/** How long a read waits for the inspections of lagging events before it lists without keeping the list. */
const SETTLE_WAIT_MS = 5000;
/** Keys of events this much older than the last proof are forgotten (no replay reaches them). */
const SEEN_MS = 2 * SKEW_MS;
/** At most this many keys are kept (a burst, or no read for a long time). */
const SEEN_MAX = 4 * ENGINE_EVENT_BUFFER;

const keyOf = (e: EngineObjectEvent) => `${e.type} ${e.action} ${e.id} ${e.timeNano}`;
/** The engine's "seconds.nanoseconds" for a Date.now() value. */
const engineTime = (ms: number) => `${Math.floor(ms / 1000)}.${String((ms % 1000) * 1e6).padStart(9, '0')}`;

/**
 * Container actions that change nothing the list shows (commands run inside, copies). A health
 * change does (the status text says healthy/unhealthy); the engine sends `health_status` only when
 * the health changes, not per probe (the probes themselves are the quiet exec_ events).
 */
const QUIET_CONTAINER_ACTION =
  /^(?:exec_|top$|resize$|attach$|detach$|export$|archive-path$|extract-to-dir$|copy$|commit$)/;

/** Whether an event can change the container list: containers, their networks, and image tags (a moved tag lists as an image ID). */
export function changesList(e: EngineObjectEvent): boolean {
  if (e.type === 'container') return !QUIET_CONTAINER_ACTION.test(e.action);
  if (e.type === 'network') return e.action === 'connect' || e.action === 'disconnect';
  if (e.type === 'image') return e.action !== 'push' && e.action !== 'save';
  return false;
}

/**
 * The container whose list row may still be behind an event when it arrives. The engine saves a
 * container's state for lists (its in-memory copy) after it has sent these events (die, stop,
 * pause, unpause, update, network connect/disconnect…), but while it still holds the container's
 * lock; inspecting the container takes that lock, so once an inspect answers the list shows the
 * change. Create, start, rename and destroy are saved before their event is sent.
 */
function lagging(e: EngineObjectEvent): string | null {
  if (e.type === 'container') return ['create', 'start', 'rename', 'destroy'].includes(e.action) ? null : e.id;
  if (e.type === 'network') return e.attributes.container ?? null;
  return null;
}

/**
 * The engine's container list (all containers), kept from the environment's one event stream
 * and served without listing again while provably current.
 *
 * Why a served list is never behind the engine. The stream alone cannot prove it: a command can
 * return to its caller before its event has reached Berth (in flight, or dropped by the engine for
 * a slow reader, or logged before the subscription took hold). So every read first asks the engine
 * for the events it still holds from shortly before the last proof up to now (one small replay
 * call answered from the engine's memory, about a ping's cost; the engine stamps events with the
 * clock Berth reads, which is why the cache runs only for an engine on this host). A change whose
 * command has returned was logged before the read began, so its event is in that replay. The read
 * serves the cache only if every list-changing event in the replay was received on the stream or
 * accounted for by a list, no event invalidated the cache since its list was taken, and the
 * replay is whole (fewer than the engine's 256 stored events). Otherwise it lists from the engine
 * (after waiting, see `lagging`, until the engine has saved what the events announced) and that
 * list becomes the cache unless an event arrived while it was taken. While the stream is down
 * every read lists, and a reconnect invalidates. A full exact answer needs this one round trip;
 * the replay is the cheapest one that can prove the cache current.
 */
export class ContainerListCache {
  private rows: ContainerListEntry[] | null = null;
  private rowsGen = -1;
  /** Bumped by every list-changing event and reconnect: rows kept under an older generation are stale. */
  private gen = 0;
  /** List-changing events received or accounted for by a list, by key (value: engine time in ns). */
  private readonly seen = new Map<string, number>();
  /** Date.now() at the start of the last replay after which everything the engine had logged was received or listed (0: none yet). */
  private provenAt = 0;
  private readonly settleQueue = new Set<string>();
  private settling = 0;
  private settledWaiters: (() => void)[] = [];
  private readonly off: (() => void)[];
  /** Reads answered from the cache and from a list call (tests and the bench read it). */
  readonly served = { cache: 0, engine: 0 };

  constructor(
    private readonly engine: Engine,
    private readonly events: EngineEvents,
    private readonly log: FastifyBaseLogger,
  ) {
    this.off = [
      events.subscribeObjects((e) => this.received(e)),
      events.subscribe((e) => {
        if (e.kind === 'resync') this.gen++;
      }),
    ];
  }

  /** Every container (the engine's `all=true` list). */
  async list(): Promise<ContainerListEntry[]> {
    if (!this.events.isConnected) return this.listFromEngine();
    const startedAt = Date.now();
    let replay: { events: EngineObjectEvent[]; complete: boolean };
    try {
      replay = await this.replay(startedAt);
    } catch (err) {
      this.log.debug({ err }, 'event replay failed; listing from the engine');
      return this.listFromEngine();
    }
    const unseen = replay.events.filter((e) => changesList(e) && !this.seen.has(keyOf(e)));
    if (replay.complete && !unseen.length && this.rows && this.rowsGen === this.gen && this.isSettled) {
      this.proven(startedAt);
      this.served.cache++;
      return this.rows;
    }

    // The replayed events are reflected by the list below (taken after the replay and after the
    // engine saved them); a list taken before this one may not be, so it must not be kept.
    if (unseen.length) this.gen++;
    for (const e of unseen) {
      this.remember(e);
      this.settle(lagging(e));
    }
    // Bounded: on a host where list-changing events never stop, inspections may never all settle;
    // past the bound the read lists as an uncached one would, and keeps nothing.
    const deadline = Date.now() + SETTLE_WAIT_MS;
    while (!this.isSettled && Date.now() < deadline) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        new Promise<void>((r) => this.settledWaiters.push(r)),
        new Promise<void>((r) => (timer = setTimeout(r, deadline - Date.now()))),
      ]);
      clearTimeout(timer);
    }
    const settled = this.isSettled;
    const gen = this.gen;
    const rows = await this.listFromEngine();
    if (settled && this.gen === gen && this.events.isConnected) {
      this.rows = rows;
      this.rowsGen = gen;
    }
    // Whatever the engine logged before the replay is in this list (or was evicted from the
    // engine's buffer before it, so is in it too): later replays need not reach back further.
    this.proven(startedAt);
    return rows;
  }

  close(): void {
    for (const off of this.off) off();
    this.rows = null;
  }

  private listFromEngine(): Promise<ContainerListEntry[]> {
    this.served.engine++;
    return this.engine.listContainers({ all: true });
  }

  private proven(at: number): void {
    if (at > this.provenAt) this.provenAt = at;
  }

  private received(e: EngineObjectEvent): void {
    // Already accounted for by a list taken after the engine saved it.
    if (!changesList(e) || this.seen.has(keyOf(e))) return;
    this.remember(e);
    this.gen++;
    this.settle(lagging(e));
  }

  /**
   * Forgetting is always safe: a forgotten event that a replay still returns looks unseen, which
   * costs one list. Keys older than the replays reach go at every 256th; past SEEN_MAX the oldest go.
   */
  private remember(e: EngineObjectEvent): void {
    this.seen.set(keyOf(e), e.timeNano);
    if (this.seen.size % ENGINE_EVENT_BUFFER !== 0) return;
    const oldest = (this.provenAt - SEEN_MS) * 1e6;
    for (const [k, t] of this.seen) if (t < oldest) this.seen.delete(k);
    for (const k of this.seen.keys()) {
      if (this.seen.size <= SEEN_MAX) break;
      this.seen.delete(k);
    }
  }

  /**
   * The engine's stored events from shortly before the last proof (else the subscription) up to
   * `now`; `complete` unless its buffer may have overflowed in that span.
   */
  private async replay(now: number): Promise<{ events: EngineObjectEvent[]; complete: boolean }> {
    // `until` is past the moment any change already returned to its caller was logged (same clock, ms rounded up).
    const until = now + 1;
    const since = Math.min(this.provenAt || this.events.connectedAt, now) - SKEW_MS;
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), REPLAY_TIMEOUT_MS);
    try {
      const stream = await this.engine.events({}, abort.signal, { since: engineTime(since), until: engineTime(until) });
      let text = '';
      for await (const chunk of stream) text += chunk.toString('utf8');
      const lines = text.split('\n').filter((l) => l.trim());
      const events = lines.map((l) => parseEngineEvent(l, this.log)).filter((e): e is EngineObjectEvent => e !== null);
      return { events, complete: lines.length < ENGINE_EVENT_BUFFER };
    } finally {
      clearTimeout(timer);
    }
  }

  private get isSettled(): boolean {
    return this.settling === 0 && this.settleQueue.size === 0;
  }

  private settle(id: string | null): void {
    if (id) this.settleQueue.add(id);
    while (this.settling < SETTLE_AT_ONCE && this.settleQueue.size) {
      const next = this.settleQueue.values().next().value!;
      this.settleQueue.delete(next);
      this.settling++;
      void this.engine
        .inspectContainer(next)
        .catch((err: unknown) => {
          if (!(err instanceof NotFoundError))
            this.log.debug({ err, container: next }, 'waiting for a container to settle failed');
        })
        .finally(() => {
          this.settling--;
          this.settle(null);
          if (this.isSettled) for (const w of this.settledWaiters.splice(0)) w();
        });
    }
  }
}
