import { describe, expect, it } from 'vitest';
import { SseParser } from './sse-fetch';

function parseAll(chunks: string[]): [string, string][] {
  const out: [string, string][] = [];
  const parser = new SseParser((type, data) => out.push([type, data]));
  for (const c of chunks) parser.push(c);
  return out;
}

describe('SseParser', () => {
  it('reads named events, default-named ones and multi-line data', () => {
    expect(parseAll(['event: update\ndata: one\n\ndata: a\ndata: b\n\nevent: status\ndata: {"x":1}\n\n'])).toEqual([
      ['update', 'one'],
      ['message', 'a\nb'],
      ['status', '{"x":1}'],
    ]);
  });

  it('joins events split anywhere across chunks, CRLF included', () => {
    const text = 'event: update\r\ndata: tick-1\r\n\r\nevent: update\r\ndata: tick-2\r\n\r\n';
    for (let cut = 1; cut < text.length; cut++) {
      expect(parseAll([text.slice(0, cut), text.slice(cut)])).toEqual([
        ['update', 'tick-1'],
        ['update', 'tick-2'],
      ]);
    }
  });

  it('skips comments (pings), unknown fields and events without data; keeps spaces after the first', () => {
    expect(parseAll([': ping\n\nid: 7\nretry: 3000\n\nevent: update\ndata:  two spaces\ndata:nospace\n\n'])).toEqual([['update', ' two spaces\nnospace']]);
  });

  it('waits for the blank line before dispatching', () => {
    expect(parseAll(['event: update\ndata: half'])).toEqual([]);
  });
});
