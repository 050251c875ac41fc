import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { revokedReason } from './live-streams';

export interface SseStream {
  /** Sends one event; returns false once the client has gone. Waits for drain on back-pressure. */
  send: (data: unknown, event?: string) => Promise<boolean>;
  /** A comment line (ignored by EventSource), e.g. to say why nothing arrives. */
  comment: (text: string) => void;
  readonly closed: boolean;
  /** Aborted when the client goes: pass it to engine streams so they close too. */
  signal: AbortSignal;
  close: () => void;
  /** Sends a last `end` event and closes the stream. */
  end: (data: unknown) => void;
}

/** Every line ending the event-stream format knows: a field ends at CRLF, a lone CR or a lone LF. */
const LINE_END = /\r\n|\r|\n/g;

/**
 * One event as text. Each line of the payload becomes its own `data:` line, split on all three
 * line endings, so a CR inside (say) a log line can never end the field early and start a forged
 * `event:` or `data:` line in a standard EventSource parser. Parsers join data lines with LF.
 */
export function encodeEvent(data: unknown, event: string): string {
  // JSON text never holds a raw CR or LF (JSON.stringify escapes both): one data line, no split.
  const lines =
    typeof data === 'string'
      ? data
          .split(LINE_END)
          .map((l) => `data: ${l}`)
          .join('\n')
      : `data: ${JSON.stringify(data)}`;
  return `event: ${event.replace(LINE_END, '')}\n${lines}\n\n`;
}

/** Open streams per server, so a shutdown can end them (a hijacked reply keeps the server open). */
const openStreams = new WeakMap<object, Set<SseStream>>();

/**
 * On shutdown: every open stream of `server` gets a last `end` event (with `detail`) and is
 * closed, so clients know the end is deliberate and the server can close.
 */
export function endAllStreams(server: FastifyInstance, detail: string): void {
  for (const sse of openStreams.get(server.server) ?? []) sse.end({ reason: 'shutdown', detail });
}

/**
 * Takes over the reply as a server-sent event stream: no-cache, no proxy buffering, a ping
 * every 15 s, and back-pressure respected so a slow client cannot grow our memory. The stream
 * takes a place in the server's live-stream registry first (a 429 beyond its caps, before
 * anything is sent) and ends with an `end` event `{reason: 'revoked'}` when its user loses the right to it.
 */
export function openSse(req: FastifyRequest, reply: FastifyReply, pingMs = 15_000): SseStream {
  const slot = req.server.liveStreams?.open(req);
  const res = reply.raw;
  reply.hijack();
  res.writeHead(200, {
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-cache, no-transform',
    'X-Accel-Buffering': 'no',
    Connection: 'keep-alive',
    'X-Content-Type-Options': 'nosniff',
  });
  res.write(': connected\n\n');
  const controller = new AbortController();
  let closed = false;
  // Keyed by the HTTP server, which every encapsulated plugin (the environment routes) shares.
  let streams = openStreams.get(req.server.server);
  if (!streams) openStreams.set(req.server.server, (streams = new Set()));
  const close = () => {
    if (closed) return;
    closed = true;
    streams.delete(stream);
    slot?.release();
    clearInterval(ping);
    controller.abort();
    if (!res.writableEnded) res.end();
  };
  const ping = setInterval(() => {
    if (!closed) res.write(': ping\n\n');
  }, pingMs);
  ping.unref();
  req.raw.on('close', close);
  res.on('error', close);

  const stream: SseStream = {
    get closed() {
      return closed;
    },
    signal: controller.signal,
    close,
    end(data) {
      if (!closed) res.write(encodeEvent(data, 'end'));
      close();
    },
    comment(text) {
      if (!closed) res.write(`: ${text.replace(LINE_END, ' ')}\n\n`);
    },
    async send(data, event = 'update') {
      if (closed) return false;
      const ok = res.write(encodeEvent(data, event));
      if (!ok && !closed) {
        await new Promise<void>((resolve) => {
          const done = () => {
            res.off('drain', done);
            req.raw.off('close', done);
            resolve();
          };
          res.once('drain', done);
          req.raw.once('close', done);
        });
      }
      return !closed;
    },
  };
  streams.add(stream);
  const revoked = () => stream.end({ reason: 'revoked', detail: revokedReason(slot!.revoked) });
  if (slot?.revoked.aborted) revoked();
  else slot?.revoked.addEventListener('abort', revoked, { once: true });
  return stream;
}
