import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readFileTail } from './log-file';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'berth-logfile-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const read = async (content: Buffer, driver: 'json-file' | 'local', lines: number, bytes = 1 << 30) => {
  const file = path.join(dir, 'log');
  fs.writeFileSync(file, content);
  const handle = await fsp.open(file, 'r');
  try {
    return await readFileTail(handle, driver, lines, bytes);
  } finally {
    await handle.close();
  }
};

/** A protobuf LogEntry (source=1, time_nano=2, line=3, partial=4) framed by its length before and after. */
function localEntry(source: string, nanos: bigint, line: string, partial = false): Buffer {
  const varint = (v: bigint) => {
    const out: number[] = [];
    do {
      out.push(Number(v & 0x7fn) | (v > 0x7fn ? 0x80 : 0));
      v >>= 7n;
    } while (v > 0n);
    return Buffer.from(out);
  };
  const bytes = (field: number, b: Buffer) =>
    Buffer.concat([varint(BigInt((field << 3) | 2)), varint(BigInt(b.length)), b]);
  const msg = Buffer.concat([
    bytes(1, Buffer.from(source)),
    varint(BigInt(2 << 3)),
    varint(nanos),
    bytes(3, Buffer.from(line)),
    ...(partial ? [varint(BigInt(4 << 3)), varint(1n)] : []),
  ]);
  const len = Buffer.alloc(4);
  len.writeUInt32BE(msg.length);
  return Buffer.concat([len, msg, len]);
}

describe('a log file read back from its end', () => {
  it('json-file: the last lines across read chunks, nine-digit times, partial entries joined, stderr kept apart', async () => {
    const rows = Array.from(
      { length: 5000 },
      (_, i) => `{"log":"line-${i + 1} ${'x'.repeat(60)}\\n","stream":"stdout","time":"2026-11-27T21:14:08.5Z"}\n`,
    );
    rows.push('{"log":"long ","stream":"stderr","time":"2026-11-27T21:14:09.1Z"}\n');
    rows.push('{"log":"out\\n","stream":"stdout","time":"2026-11-27T21:14:09.2Z"}\n');
    rows.push('{"log":"line\\r\\n","stream":"stderr","time":"2026-11-27T21:14:09.3Z"}\n');
    // Like the engine's tail, the count is of entries: the two pieces of 'long line' make one line.
    const lines = await read(Buffer.from(rows.join('')), 'json-file', 2000);
    expect(lines).toHaveLength(1999);
    expect(lines[0]!.text).toBe(`line-3004 ${'x'.repeat(60)}`);
    expect(lines.slice(-2)).toEqual([
      { text: 'out', stream: 1, ts: '2026-11-27T21:14:09.200000000Z', nanos: 1795814049200000000n },
      { text: 'long line', stream: 2, ts: '2026-11-27T21:14:09.100000000Z', nanos: 1795814049100000000n },
    ]);
    // The byte budget stops the read early (whole rows only).
    expect((await read(Buffer.from(rows.join('')), 'json-file', 2000, 1000)).length).toBeLessThan(20);
  });

  it('local: framed protobuf entries, partial pieces joined', async () => {
    const t = 1795814048500000000n;
    const file = Buffer.concat([
      localEntry('stdout', t, 'one'),
      localEntry('stderr', t + 1n, 'two'),
      localEntry('stdout', t + 2n, 'thr', true),
      localEntry('stdout', t + 3n, 'ee'),
    ]);
    const lines = await read(file, 'local', 10);
    expect(lines.map((l) => [l.stream, l.text])).toEqual([
      [1, 'one'],
      [2, 'two'],
      [1, 'three'],
    ]);
    expect(lines[2]!.ts).toBe('2026-11-27T21:14:08.500000002Z');
    expect((await read(file, 'local', 3)).map((l) => l.text)).toEqual(['two', 'three']);
  });
});
