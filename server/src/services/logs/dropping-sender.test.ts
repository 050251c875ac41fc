import { describe, expect, it } from 'vitest';
import { LogStreamEvent } from '@berth/contract';
import type { SseStream } from '../../lib/sse';
import type { LogLine } from '../../docker/logs';
import { droppingSender } from './log-range';

const line = (i: number): LogLine => ({ text: `line ${i}`, ts: null, nanos: null, stream: 1 });

describe('droppingSender', () => {
  it('leaves the oldest pending lines out while the client is busy and says how many', async () => {
    const sent: { data: unknown; event?: string }[] = [];
    let release: () => void = () => undefined;
    const sse = {
      closed: false,
      // The first send blocks (a client that does not read), the rest go through.
      send: (data: unknown, event?: string) => {
        sent.push({ data, event });
        return sent.length === 1 ? new Promise<boolean>((r) => (release = () => r(true))) : Promise.resolve(true);
      },
    } as unknown as SseStream;
    const s = droppingSender(sse, { timestamps: false, json: true }, 3);
    s.push([line(0)]);
    s.push([line(1), line(2)]);
    s.push([line(3), line(4), line(5)]);
    expect(s.dropped).toBe(2);
    release();
    await s.flush();
    expect(sent.map((x) => x.event)).toEqual([LogStreamEvent.lines, LogStreamEvent.dropped, LogStreamEvent.lines]);
    expect(sent[1]!.data).toEqual({ dropped: 2 });
    expect((sent[2]!.data as { line: string }[]).map((l) => l.line)).toEqual(['line 3', 'line 4', 'line 5']);
  });
});
