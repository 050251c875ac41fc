import { describe, expect, it } from 'vitest';
import { takeSseEvents } from './pull-stream';

describe('takeSseEvents', () => {
  it('takes complete events, skips comments and keeps a partial tail for the next chunk', () => {
    const first = takeSseEvents(': connected\n\nevent: progress\ndata: {"status":"a"}\n\nevent: done\ndata: [1,');
    expect(first.events).toEqual([{ event: 'progress', data: '{"status":"a"}' }]);
    const second = takeSseEvents(`${first.rest}2]\n\n`);
    expect(second.events).toEqual([{ event: 'done', data: '[1,2]' }]);
    expect(second.rest).toBe('');
  });

  it('joins multi-line data and reads CRLF streams', () => {
    expect(takeSseEvents('event: error\r\ndata: a\r\ndata: b\r\n\r\n').events).toEqual([{ event: 'error', data: 'a\nb' }]);
  });
});
