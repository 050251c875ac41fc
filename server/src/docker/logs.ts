import type { ByteStream, Engine } from './engine';

/** Longest log line we pass on; the rest of a longer line is dropped (a noisy container cannot flood a page). */
export const MAX_LINE_BYTES = 16 * 1024;
const TRUNCATED = ' …[line truncated]';

export interface LogLine {
  text: string;
  /** The engine's RFC 3339 timestamp (when asked for), e.g. 2024-05-01T12:00:00.123456789Z. */
  ts: string | null;
  /** The same in nanoseconds since the epoch, for exact resumption. */
  nanos: bigint | null;
  /** 2 = stderr, else stdout (a TTY container's log is all stdout). */
  stream?: number;
}

/**
 * Splits the engine's multiplexed log stream (non-TTY containers): frames of an 8-byte header
 * (stream type, 3 zero bytes, big-endian length) followed by the payload.
 */
export class FrameDemuxer {
  private pending: Buffer = Buffer.alloc(0);

  push(chunk: Buffer): { stream: number; payload: Buffer }[] {
    const buf = this.pending.length ? Buffer.concat([this.pending, chunk]) : chunk;
    const frames: { stream: number; payload: Buffer }[] = [];
    let at = 0;
    while (buf.length - at >= 8) {
      const size = buf.readUInt32BE(at + 4);
      if (buf.length - at - 8 < size) break;
      frames.push({ stream: buf[at]!, payload: buf.subarray(at + 8, at + 8 + size) });
      at += 8 + size;
    }
    this.pending = at < buf.length ? Buffer.from(buf.subarray(at)) : Buffer.alloc(0);
    return frames;
  }
}

/** Cuts bytes into lines (without the newline), capping each at `max` bytes. */
export class LineSplitter {
  private parts: Buffer[] = [];
  private size = 0;
  private skipping = false;

  constructor(private readonly max = MAX_LINE_BYTES) {}

  push(data: Buffer): string[] {
    const lines: string[] = [];
    let from = 0;
    while (from <= data.length) {
      const nl = data.indexOf(10, from);
      const end = nl === -1 ? data.length : nl;
      if (nl !== -1 && this.size === 0 && !this.skipping && end - from <= this.max) {
        // The common case (a whole line in one piece): decoded straight from the chunk, no copies.
        lines.push(decodeLine(data, from, end));
        from = nl + 1;
        continue;
      }
      this.append(data.subarray(from, end), lines);
      if (nl === -1) break;
      if (!this.skipping) lines.push(this.take());
      this.skipping = false;
      this.parts = [];
      this.size = 0;
      from = nl + 1;
    }
    return lines;
  }

  /** What is left without a final newline. */
  flush(): string[] {
    const rest = this.size && !this.skipping ? [this.take()] : [];
    this.parts = [];
    this.size = 0;
    this.skipping = false;
    return rest;
  }

  private append(part: Buffer, lines: string[]): void {
    if (this.skipping || part.length === 0) return;
    this.parts.push(part);
    this.size += part.length;
    if (this.size > this.max) {
      lines.push(Buffer.concat(this.parts).subarray(0, this.max).toString('utf8') + TRUNCATED);
      this.parts = [];
      this.size = 0;
      this.skipping = true;
    }
  }

  private take(): string {
    const whole = this.parts.length === 1 ? this.parts[0]! : Buffer.concat(this.parts);
    return decodeLine(whole, 0, whole.length);
  }
}

/** A line's text from bytes (without its newline), a final carriage return dropped. */
function decodeLine(buf: Buffer, start: number, end: number): string {
  return buf.toString('utf8', start, end > start && buf[end - 1] === 13 ? end - 1 : end);
}

const TS = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d{1,9}))?(Z|[+-]\d\d:\d\d) /;

/** The last second parsed (a flood has thousands of lines per second): its text and nanoseconds. */
let lastSecond = { text: '', nanos: 0n };

/** Splits the engine's timestamp prefix off a line (present when asked with timestamps=true). */
export function splitTimestamp(line: string, stream?: number): LogLine {
  const m = TS.exec(line);
  if (!m) return { text: line, ts: null, nanos: null, ...(stream !== undefined ? { stream } : {}) };
  const second = m[3] === 'Z' ? m[1]! : `${m[1]}${m[3]}`;
  if (second !== lastSecond.text) {
    const ms = Date.parse(m[3] === 'Z' ? `${second}Z` : second);
    if (Number.isNaN(ms)) return { text: line, ts: null, nanos: null, ...(stream !== undefined ? { stream } : {}) };
    lastSecond = { text: second, nanos: BigInt(ms) * 1_000_000n };
  }
  const nanos = m[2] ? lastSecond.nanos + BigInt(m[2].padEnd(9, '0')) : lastSecond.nanos;
  return { text: line.slice(m[0].length), ts: m[0].slice(0, -1), nanos, ...(stream !== undefined ? { stream } : {}) };
}

/** The engine's `since` parameter ("seconds.nanoseconds") for a point in nanoseconds. */
export function sinceParam(nanos: bigint): string {
  const s = nanos / 1_000_000_000n;
  const n = nanos % 1_000_000_000n;
  return `${s}.${n.toString().padStart(9, '0')}`;
}

export interface LogStreamOptions {
  follow: boolean;
  /** Lines from the end to start with. */
  tail?: number;
  /** Only lines after this point (nanoseconds since the epoch, exclusive). */
  afterNanos?: bigint;
  /** Only lines before this point (nanoseconds since the epoch, exclusive). */
  untilNanos?: bigint;
  timestamps: boolean;
  signal?: AbortSignal;
}

type Readable = ByteStream;

/** Opens a container's log (stdout and stderr) as a byte stream, multiplexed unless `tty`. */
export async function openLogStream(engine: Engine, id: string, opts: LogStreamOptions): Promise<Readable> {
  return engine.logs(id, {
    follow: opts.follow,
    timestamps: opts.timestamps,
    ...(opts.tail !== undefined ? { tail: opts.tail } : {}),
    // The engine's `since` is inclusive; one nanosecond later skips the line we already have.
    ...(opts.afterNanos !== undefined ? { since: sinceParam(opts.afterNanos + 1n) } : {}),
    ...(opts.untilNanos !== undefined ? { until: sinceParam(opts.untilNanos) } : {}),
    ...(opts.signal ? { signal: opts.signal } : {}),
  });
}

/** Reads a log stream line by line; pauses the engine stream while the consumer is busy. */
export async function* readLogLines(stream: Readable, tty: boolean, maxLine = MAX_LINE_BYTES): AsyncGenerator<LogLine> {
  for await (const batch of readLogBatches(stream, tty, maxLine)) yield* batch;
}

/**
 * Reads a log stream as batches of lines (the lines of one engine chunk), so a flood costs one
 * await per chunk, not per line; the engine stream waits while the consumer is busy.
 */
export async function* readLogBatches(
  stream: Readable,
  tty: boolean,
  maxLine = MAX_LINE_BYTES,
): AsyncGenerator<LogLine[]> {
  const demux = tty ? null : new FrameDemuxer();
  const splitters = new Map<number, LineSplitter>();
  const splitter = (n: number) => {
    let s = splitters.get(n);
    if (!s) splitters.set(n, (s = new LineSplitter(maxLine)));
    return s;
  };
  const line = (text: string, n: number): LogLine => splitTimestamp(text, n);
  try {
    for await (const chunk of stream) {
      const frames = demux ? demux.push(chunk) : [{ stream: 1, payload: chunk }];
      const batch: LogLine[] = [];
      for (const f of frames) for (const text of splitter(f.stream).push(f.payload)) batch.push(line(text, f.stream));
      if (batch.length) yield batch;
    }
    const rest: LogLine[] = [];
    for (const [n, s] of splitters) for (const text of s.flush()) rest.push(line(text, n));
    if (rest.length) yield rest;
  } finally {
    stream.destroy?.();
  }
}

/**
 * The log's bytes without the engine's frame headers, chunk by chunk (lines stay whole: the
 * engine frames whole lines, and with timestamps prefixes each): for downloads, streamed with
 * back-pressure and never held whole.
 */
export async function* readLogBytes(stream: Readable, tty: boolean): AsyncGenerator<Buffer> {
  const demux = tty ? null : new FrameDemuxer();
  try {
    for await (const chunk of stream) {
      if (!demux) {
        yield chunk;
        continue;
      }
      const frames = demux.push(chunk);
      if (frames.length) yield frames.length === 1 ? frames[0]!.payload : Buffer.concat(frames.map((f) => f.payload));
    }
  } finally {
    stream.destroy?.();
  }
}

/**
 * The whole log as text (stdout and stderr interleaved), keeping the last `maxBytes`; gives up
 * reading after `timeoutMs` and says so at the top.
 */
export async function readWholeLog(
  engine: Engine,
  id: string,
  tty: boolean,
  maxBytes: number,
  timeoutMs: number,
): Promise<string> {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), timeoutMs);
  const stream = await openLogStream(engine, id, { follow: false, timestamps: true, signal: abort.signal });
  const demux = tty ? null : new FrameDemuxer();
  const kept: Buffer[] = [];
  let size = 0;
  let dropped = 0;
  let timedOut = false;
  try {
    for await (const chunk of stream) {
      for (const f of demux ? demux.push(chunk) : [{ payload: chunk }]) {
        kept.push(f.payload);
        size += f.payload.length;
        while (size - kept[0]!.length >= maxBytes) {
          size -= kept[0]!.length;
          dropped += kept.shift()!.length;
        }
      }
    }
  } catch (err) {
    if (!abort.signal.aborted) throw err;
    timedOut = true;
  } finally {
    clearTimeout(timer);
    stream.destroy?.();
  }
  let body = Buffer.concat(kept);
  if (body.length > maxBytes) {
    dropped += body.length - maxBytes;
    body = body.subarray(body.length - maxBytes);
  }
  const notes = [
    dropped
      ? `[Berth: the first ${dropped} bytes of this log are left out; the bundle keeps the last ${maxBytes} bytes]`
      : '',
    timedOut
      ? `[Berth: reading the log took longer than ${Math.round(timeoutMs / 1000)} s; what was read so far follows]`
      : '',
  ].filter(Boolean);
  return (notes.length ? `${notes.join('\n')}\n` : '') + body.toString('utf8');
}
