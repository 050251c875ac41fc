import { describe, expect, it } from 'vitest';
import { appsApi, usersApi, type RouteDef } from '@berth/contract';
import { buildUrl, readEvents, type SseMessage } from './api-client';

function streamOf(chunks: string[], onCancel?: () => void): Response {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const c of chunks) controller.enqueue(new TextEncoder().encode(c));
      if (!onCancel) controller.close();
    },
    cancel: onCancel,
  });
  return new Response(body, { headers: { 'Content-Type': 'text/event-stream' } });
}

async function readAll(chunks: string[]): Promise<SseMessage[][]> {
  const out: SseMessage[][] = [];
  for await (const batch of readEvents(streamOf(chunks))) out.push(batch);
  return out;
}

describe('readEvents', () => {
  it('hands over one batch per network chunk: named events, unnamed ones as message, multi-line data; pings skipped', async () => {
    const batches = await readAll([
      ': ping\n\nevent: update\ndata: one\n\ndata: a\ndata: b\n\n',
      'event: status\r\ndata: {"x":1}\r\n\r\n',
    ]);
    expect(batches).toEqual([
      [
        { event: 'update', data: 'one' },
        { event: 'message', data: 'a\nb' },
      ],
      [{ event: 'status', data: '{"x":1}' }],
    ]);
  });

  it('joins an event split anywhere across chunks and waits for its blank line', async () => {
    const text = 'event: update\r\ndata: tick-1\r\n\r\nevent: update\r\ndata: tick-2\r\n\r\nevent: update\ndata: half';
    for (let cut = 1; cut < text.length; cut++) {
      const events = (await readAll([text.slice(0, cut), text.slice(cut)])).flat();
      expect(events).toEqual([
        { event: 'update', data: 'tick-1' },
        { event: 'update', data: 'tick-2' },
      ]);
    }
  });

  it('cancels the answer when the reader stops early', async () => {
    let cancelled = false;
    for await (const batch of readEvents(streamOf(['event: done\ndata: [1]\n\n'], () => (cancelled = true)))) {
      expect(batch).toEqual([{ event: 'done', data: '[1]' }]);
      break;
    }
    expect(cancelled).toBe(true);
  });
});

describe('buildUrl', () => {
  it('sends an environment route to the environment it names (local: the spec path), a global route to its own path', () => {
    expect(buildUrl(appsApi.get, { env: 'local', params: { name: 'web' } })).toBe('/api/apps/web');
    expect(buildUrl(appsApi.logs, { env: 'build-2', params: { name: 'web' }, query: { tail: '10' } })).toBe(
      '/api/environments/build-2/apps/web/logs?tail=10',
    );
    expect(buildUrl(usersApi.list, {})).toBe('/api/users');
    // The type refuses an environment route without `env`; a call that gets round it fails loudly.
    expect(() => buildUrl(appsApi.list as RouteDef, {})).toThrow(/acts on an environment/);
  });
});
