import type { FileHandle } from 'node:fs/promises';
import { LineSplitter, splitTimestamp, type LogLine } from '../../docker/logs';

/** The log drivers whose files Berth can read itself: json-file's JSON lines and local's framed protobuf. */
export type FileDriver = 'json-file' | 'local';
export const FILE_DRIVERS: readonly string[] = ['json-file', 'local'] satisfies FileDriver[];

/** One entry as a log driver stored it: a piece of a line (partial) or a line's end. */
interface Entry {
  stream: number;
  /** RFC 3339 with nine digits, as the engine writes timestamps on `docker logs -t`. */
  ts: string;
  line: Buffer;
  /** The line goes on in the next entry of its stream (the engine cuts lines at 16 KiB). */
  partial: boolean;
}

/** Bytes read from the end at a time. */
const CHUNK = 256 * 1024;

/**
 * The last `lines` lines of a log file held open, or the last `bytes` bytes' worth of entries
 * (whichever is fewer), as the engine's log stream would give them: stdout and stderr, their times,
 * lines longer than 16 KiB cut like a live log. The file's bytes are taken as they are: nothing
 * is added to what the engine wrote.
 */
export async function readFileTail(
  file: FileHandle,
  driver: FileDriver,
  lines: number,
  bytes: number,
): Promise<LogLine[]> {
  const size = (await file.stat()).size;
  const entries =
    driver === 'local' ? await localEntries(file, size, lines, bytes) : await jsonEntries(file, size, lines, bytes);
  return toLines(entries).slice(-lines);
}

/** json-file: one JSON object a line, `{"log":"…\n","stream":"stdout","time":"…"}`, read back from the end. */
async function jsonEntries(file: FileHandle, size: number, lines: number, bytes: number): Promise<Entry[]> {
  const rows: Buffer[] = [];
  let taken = 0;
  let end = size;
  let carry = Buffer.alloc(0);
  while (end > 0 && rows.length < lines && taken < bytes) {
    const start = Math.max(0, end - CHUNK);
    const buf = Buffer.alloc(end - start);
    await file.read(buf, 0, buf.length, start);
    const data = carry.length ? Buffer.concat([buf, carry]) : buf;
    // Whole rows only: what comes before the first newline waits for the next chunk (unless it is the file's start).
    let stop = data.length;
    while (stop > 0 && rows.length < lines && taken < bytes) {
      const nl = data.lastIndexOf(10, stop - 1);
      if (nl === -1 && start > 0) break;
      const row = data.subarray(nl + 1, stop);
      if (row.length) {
        rows.push(row);
        taken += row.length;
      }
      stop = Math.max(nl, 0);
    }
    carry = start > 0 ? Buffer.from(data.subarray(0, stop)) : Buffer.alloc(0);
    end = start;
  }
  const entries: Entry[] = [];
  for (const row of rows.reverse()) {
    let parsed: { log?: unknown; stream?: unknown; time?: unknown };
    try {
      parsed = JSON.parse(row.toString('utf8')) as typeof parsed;
    } catch {
      continue; // a row the engine was writing when the file was read
    }
    if (typeof parsed.log !== 'string' || typeof parsed.time !== 'string') continue;
    const line = Buffer.from(parsed.log, 'utf8');
    const partial = line.at(-1) !== 10;
    entries.push({
      stream: parsed.stream === 'stderr' ? 2 : 1,
      ts: fixedNanos(parsed.time),
      line: partial ? line : line.subarray(0, -1),
      partial,
    });
  }
  return entries;
}

/**
 * local: each entry is a protobuf LogEntry (source=1, time_nano=2, line=3, partial=4) framed by its
 * length as a big-endian uint32 before and after, so the file reads back from its end.
 */
async function localEntries(file: FileHandle, size: number, lines: number, bytes: number): Promise<Entry[]> {
  const entries: Entry[] = [];
  let taken = 0;
  let end = size;
  let buf = Buffer.alloc(0);
  let bufStart = size;
  const need = async (from: number) => {
    if (from >= bufStart) return;
    const start = Math.max(0, Math.min(from, bufStart - CHUNK));
    const more = Buffer.alloc(bufStart - start);
    await file.read(more, 0, more.length, start);
    buf = Buffer.concat([more, buf]);
    bufStart = start;
  };
  while (end >= 8 && entries.length < lines && taken < bytes) {
    await need(end - 4);
    const len = buf.readUInt32BE(end - 4 - bufStart);
    const from = end - 8 - len;
    if (from < 0) break;
    await need(from);
    if (buf.readUInt32BE(from - bufStart) !== len) break; // not a frame: stop at what was read
    const entry = decodeLocalEntry(buf.subarray(from + 4 - bufStart, end - 4 - bufStart));
    if (entry) entries.push(entry);
    taken += len;
    end = from;
    // Only what is still to be read stays in memory.
    buf = buf.subarray(0, end - bufStart);
  }
  return entries.reverse();
}

/** One LogEntry message (api/types/plugins/logdriver/entry.proto), the fields Berth needs. */
export function decodeLocalEntry(msg: Buffer): Entry | null {
  let at = 0;
  let source = '';
  let nanos = 0n;
  let line: Buffer = Buffer.alloc(0);
  let partial = false;
  const varint = () => {
    let v = 0n;
    for (let shift = 0n; at < msg.length; shift += 7n) {
      const b = msg[at++]!;
      v |= BigInt(b & 0x7f) << shift;
      if (b < 0x80) return v;
    }
    throw new RangeError('truncated varint');
  };
  try {
    while (at < msg.length) {
      const key = Number(varint());
      const [field, wire] = [key >> 3, key & 7];
      if (wire === 0) {
        const v = varint();
        if (field === 2) nanos = v;
        else if (field === 4) partial = v !== 0n;
      } else if (wire === 2) {
        const len = Number(varint());
        const value = msg.subarray(at, at + len);
        at += len;
        if (field === 1) source = value.toString('utf8');
        else if (field === 3) line = value;
      } else if (wire === 1) at += 8;
      else if (wire === 5) at += 4;
      else return null;
    }
  } catch {
    return null;
  }
  return { stream: source === 'stderr' ? 2 : 1, ts: isoNanos(nanos), line, partial };
}

/** The entries as log lines: a partial entry's piece joins the next of its stream; the line has its first piece's time. */
function toLines(entries: Entry[]): LogLine[] {
  const out: LogLine[] = [];
  const open = new Map<number, { splitter: LineSplitter; ts: string | null }>();
  for (const e of entries) {
    let s = open.get(e.stream);
    if (!s) open.set(e.stream, (s = { splitter: new LineSplitter(), ts: null }));
    const ts = s.ts ?? e.ts;
    const done = s.splitter.push(e.partial ? e.line : Buffer.concat([e.line, NEWLINE]));
    for (const text of done) out.push(splitTimestamp(`${ts} ${text}`, e.stream));
    s.ts = e.partial ? ts : null;
  }
  for (const [stream, s] of open)
    for (const text of s.splitter.flush()) out.push(splitTimestamp(`${s.ts} ${text}`, stream));
  return out;
}
const NEWLINE = Buffer.from('\n');

/** `2026-11-27T21:14:08.54913Z` (Go's RFC3339Nano drops trailing zeros) as the engine's fixed nine digits. */
function fixedNanos(time: string): string {
  const m = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d{1,9}))?Z$/.exec(time);
  return m ? `${m[1]}.${(m[2] ?? '').padEnd(9, '0')}Z` : time;
}

function isoNanos(nanos: bigint): string {
  const ms = Number(nanos / 1_000_000n);
  const frac = (nanos % 1_000_000_000n).toString().padStart(9, '0');
  return `${new Date(ms).toISOString().slice(0, 19)}.${frac}Z`;
}
