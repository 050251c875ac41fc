import { LogStreamEvent, type LogRangeQuery } from '@berth/contract';
import type { LogLine } from '../../docker/logs';
import { ValidationError } from '../../errors';
import type { SseStream } from '../../lib/sse';

/** Lines sent first when a log stream opens without `tail`. */
export const LOG_TAIL_LINES = 500;

const UNIT_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };
const RELATIVE = /^(\d{1,9})(s|m|h|d|w)$/;
const RFC3339 = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d{1,9}))?(Z|[+-]\d\d:\d\d)$/i;

/** A log query's `since`/`until`: RFC 3339 or a relative age (`15m`), in nanoseconds since the epoch. */
export function parseLogTime(value: string, field: string, now = Date.now()): bigint {
  const rel = RELATIVE.exec(value);
  if (rel) return BigInt(now - Number(rel[1]) * UNIT_MS[rel[2]!]!) * 1_000_000n;
  const abs = RFC3339.exec(value);
  const ms = abs ? Date.parse(`${abs[1]}${abs[3]!.toUpperCase()}`) : NaN;
  if (!abs || Number.isNaN(ms)) {
    throw new ValidationError(
      `${field} is a time in RFC 3339 (2024-05-01T12:00:00Z) or an age such as 90s, 15m, 2h or 7d; got "${value}".`,
      [{ field, message: 'not a time' }],
    );
  }
  return BigInt(ms) * 1_000_000n + BigInt((abs[2] ?? '').padEnd(9, '0'));
}

export interface LogRange {
  /** Lines from the end; undefined = all. */
  tail?: number;
  /** Inclusive start, nanoseconds. */
  sinceNanos?: bigint;
  /** Exclusive end, nanoseconds. */
  untilNanos?: bigint;
  timestamps: boolean;
  json: boolean;
}

export const isOn = (flag: string | undefined) => flag === '1' || flag === 'true';

/** Reads the range of a log query; `defaultTail` applies when `tail` is absent (downloads and search read everything). */
export function parseLogRange(q: Partial<LogRangeQuery>, defaultTail: number | undefined, now = Date.now()): LogRange {
  const sinceNanos = q.since ? parseLogTime(q.since, 'since', now) : undefined;
  const untilNanos = q.until ? parseLogTime(q.until, 'until', now) : undefined;
  if (sinceNanos !== undefined && untilNanos !== undefined && untilNanos <= sinceNanos) {
    throw new ValidationError('until must be later than since.', [{ field: 'until', message: 'not after since' }]);
  }
  const tail = q.tail === undefined ? defaultTail : q.tail === 'all' ? undefined : Number(q.tail);
  return {
    ...(tail !== undefined ? { tail } : {}),
    ...(sinceNanos !== undefined ? { sinceNanos } : {}),
    ...(untilNanos !== undefined ? { untilNanos } : {}),
    timestamps: isOn(q.timestamps),
    json: q.format === 'json',
  };
}

/** True when the range ends before `now`: the stream sends what there is and ends. */
export const endsInPast = (r: LogRange, now = Date.now()) =>
  r.untilNanos !== undefined && r.untilNanos <= BigInt(now) * 1_000_000n;

/** A line as the json format sends it. */
export function logEntry(line: { text: string; ts: string | null; stream?: number }, withTs: boolean) {
  return {
    line: line.text,
    stream: line.stream === 2 ? ('stderr' as const) : ('stdout' as const),
    ...(withTs && line.ts ? { ts: line.ts } : {}),
  };
}

/** Lines a followed json log stream holds for a slow reader before it leaves the oldest out. */
export const MAX_PENDING_LINES = 5000;

/**
 * Sends a followed log's lines (format=json) without holding up the engine stream: while the
 * client is still taking the previous batch, new lines wait (at most `maxPending`, the oldest
 * are left out beyond that and counted), so a reader slower than the producer sees the newest
 * lines and a `dropped` event with the count instead of falling ever further behind.
 * `push` answers false once the client is gone; `flush` waits for what is pending.
 */
export function droppingSender(sse: SseStream, range: LogRange, maxPending = MAX_PENDING_LINES) {
  return droppingQueue<LogLine>(sse, (lines) => sendLogLines(sse, lines, range), maxPending);
}

/** droppingSender's queue for any kind of line (a project's log sends its lines tagged with their service); `send` answers false once the client is gone. */
export function droppingQueue<T>(
  sse: SseStream,
  send: (lines: T[]) => Promise<boolean>,
  maxPending = MAX_PENDING_LINES,
) {
  let pending: T[] = [];
  let dropped = 0;
  let reported = 0;
  let sending: Promise<void> | null = null;
  const drain = async () => {
    while (pending.length && !sse.closed) {
      const lines = pending;
      pending = [];
      if (dropped !== reported) {
        const since = dropped - reported;
        reported = dropped;
        await sse.send({ dropped: since }, LogStreamEvent.dropped);
      }
      if (!(await send(lines))) break;
    }
    sending = null;
  };
  return {
    push(lines: T[]): boolean {
      for (const l of lines) pending.push(l);
      if (pending.length > maxPending) {
        dropped += pending.length - maxPending;
        pending = pending.slice(-maxPending);
      }
      sending ??= drain();
      return !sse.closed;
    },
    flush: async () => {
      while (sending) await sending;
    },
    get dropped() {
      return dropped;
    },
  };
}

/** The spec's shape (one `update` per line, the text) or, with format=json, one `lines` event per batch; false once the client is gone. */
export async function sendLogLines(sse: SseStream, lines: LogLine[], range: LogRange): Promise<boolean> {
  if (range.json)
    return sse.send(
      lines.map((l) => logEntry(l, range.timestamps)),
      LogStreamEvent.lines,
    );
  for (const l of lines) if (!(await sse.send(range.timestamps && l.ts ? `${l.ts} ${l.text}` : l.text))) return false;
  return true;
}

/** Ends a stream with the `end` event: the range's `until` is reached. */
export const endOfRange = (sse: SseStream) =>
  sse.end({ reason: 'until', detail: 'The requested time range is complete.' });

/** The longest delay setTimeout keeps (2^31 − 1 ms). */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** Ends the stream when a range's future `until` comes; returns the cancel. */
export function endAtUntil(sse: SseStream, range: LogRange): () => void {
  if (range.untilNanos === undefined) return () => undefined;
  const delay = Number(range.untilNanos / 1_000_000n) - Date.now();
  // Past ~24.8 days setTimeout overflows and fires at once: such a stream ends when its client goes.
  if (delay > MAX_TIMER_MS) return () => undefined;
  const timer = setTimeout(() => endOfRange(sse), delay);
  return () => clearTimeout(timer);
}
