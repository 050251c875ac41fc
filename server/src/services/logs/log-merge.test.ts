import { describe, expect, it } from 'vitest';
import type { LogLine } from '../../docker/logs';
import { mergeByTime, ReorderBuffer } from './log-merge';

const line = (text: string, nanos: number): LogLine => ({ text, ts: null, nanos: BigInt(nanos) });

async function* from(lines: LogLine[]) {
  yield* lines;
}

describe('mergeByTime', () => {
  it('merges sources that are each in order into one in order', async () => {
    const out: string[] = [];
    for await (const l of mergeByTime([
      from([line('a1', 1), line('a4', 4)]),
      from([line('b2', 2), line('b3', 3), line('b5', 5)]),
      from([]),
    ]))
      out.push(l.text);
    expect(out).toEqual(['a1', 'b2', 'b3', 'a4', 'b5']);
  });
});

describe('ReorderBuffer', () => {
  it('holds a line until every open source has caught up, or the window has passed', () => {
    const buf = new ReorderBuffer<LogLine>(500);
    buf.open('a');
    buf.open('b');
    buf.push('a', [line('a10', 10), line('a30', 30)], 0);
    // b has sent nothing yet: nothing may go.
    expect(buf.release(100)).toEqual([]);
    buf.push('b', [line('b20', 20)], 100);
    // Both have reached 20: what is older goes, in time order; a30 waits for b.
    expect(buf.release(100).map((l) => l.text)).toEqual(['a10', 'b20']);
    // b stays quiet: after the window a30 goes anyway.
    expect(buf.release(499)).toEqual([]);
    expect(buf.release(500).map((l) => l.text)).toEqual(['a30']);
    // A closed source holds nobody back.
    buf.push('a', [line('a40', 40)], 600);
    buf.close('b');
    expect(buf.release(600).map((l) => l.text)).toEqual(['a40']);
  });
});
