import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { describe, expect, it } from 'vitest';
import { openSse } from './sse';

/** Serves `payloads` as one SSE stream through openSse and parses the bytes with a standard EventSource parser. */
async function roundTrip(payloads: unknown[]): Promise<EventSourceMessage[]> {
  const app = Fastify();
  app.get('/s', async (req, reply) => {
    const sse = openSse(req, reply);
    for (const p of payloads) await sse.send(p);
    sse.close();
    return reply;
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  try {
    const res = await fetch(`http://127.0.0.1:${(app.server.address() as AddressInfo).port}/s`);
    const events: EventSourceMessage[] = [];
    const parser = createParser({ onEvent: (e) => events.push(e) });
    parser.feed(await res.text());
    return events;
  } finally {
    await app.close();
  }
}

describe('SSE encoding', () => {
  it('never lets a bare CR in the data end a field or forge an event', async () => {
    const hostile = 'progress 10%\revent: end\rdata: {"ok":true}\r\rid: 99';
    const events = await roundTrip([hostile, 'next']);
    expect(events.map((e) => e.event)).toEqual(['update', 'update']);
    expect(events.map((e) => e.id)).toEqual([undefined, undefined]);
    // Every CR reads as a line break, as EventSource itself treats it; nothing of the text is lost.
    expect(events[0]!.data).toBe('progress 10%\nevent: end\ndata: {"ok":true}\n\nid: 99');
    expect(events[1]!.data).toBe('next');
  });

  it('keeps LF and CRLF lines and JSON payloads as before', async () => {
    const events = await roundTrip(['one\ntwo', 'three\r\nfour', { a: 'x\ry' }]);
    expect(events.map((e) => e.data)).toEqual(['one\ntwo', 'three\nfour', '{"a":"x\\ry"}']);
  });

  it('compresses an opted-in stream for a client that accepts it, each event flushed as it is sent', async () => {
    for (const encoding of ['br', 'gzip']) {
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      const app = Fastify();
      app.get('/s', async (req, reply) => {
        const sse = openSse(req, reply, { compress: true });
        for (let i = 0; i < 50; i++) await sse.send({ name: `app-${i}`, cpu_percent: 1.5, memory_usage: 1024 * i });
        await held; // the client must see the events while the stream is still open
        sse.close();
        return reply;
      });
      await app.listen({ host: '127.0.0.1', port: 0 });
      try {
        const res = await fetch(`http://127.0.0.1:${(app.server.address() as AddressInfo).port}/s`, {
          headers: { 'accept-encoding': encoding },
        });
        expect(res.headers.get('content-encoding')).toBe(encoding);
        const events: EventSourceMessage[] = [];
        const parser = createParser({ onEvent: (e) => events.push(e) });
        const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
        while (events.length < 50) {
          const { value, done } = await reader.read();
          if (done) break;
          parser.feed(value);
        }
        expect(events).toHaveLength(50);
        expect(JSON.parse(events[49]!.data)).toEqual({ name: 'app-49', cpu_percent: 1.5, memory_usage: 1024 * 49 });
        release();
        expect((await reader.read()).done).toBe(true);
      } finally {
        release();
        await app.close();
      }
    }
  });

  it('sends a stream uncompressed when not opted in or not accepted', async () => {
    const app = Fastify();
    app.get('/plain', async (req, reply) => {
      const sse = openSse(req, reply);
      sse.close();
      return reply;
    });
    app.get('/opted', async (req, reply) => {
      const sse = openSse(req, reply, { compress: true });
      sse.close();
      return reply;
    });
    await app.listen({ host: '127.0.0.1', port: 0 });
    try {
      const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
      const plain = await fetch(`${base}/plain`, { headers: { 'accept-encoding': 'br' } });
      expect(plain.headers.get('content-encoding')).toBeNull();
      const identity = await fetch(`${base}/opted`, { headers: { 'accept-encoding': 'identity' } });
      expect(identity.headers.get('content-encoding')).toBeNull();
      expect(await identity.text()).toBe(': connected\n\n');
    } finally {
      await app.close();
    }
  });
});
