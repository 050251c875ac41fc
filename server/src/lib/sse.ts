import zlib from 'node:zlib';
import type { Writable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { acceptedEncoding } from './accept-encoding';
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
 * A compressor for a stream whose events repeat their shape (the dashboard's ticks: the same
 * keys and names every second), flushed after every write so each event arrives at once. Brotli
 * (quality 4, 64 KB window) or gzip. Windows are kept small: one compressor is held per open stream.
 */
export function eventCompressor(encoding: 'br' | 'gzip'): zlib.BrotliCompress | zlib.Gzip {
  if (encoding === 'br')
    return zlib.createBrotliCompress({
      flush: zlib.constants.BROTLI_OPERATION_FLUSH,
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: 4,
        [zlib.constants.BROTLI_PARAM_LGWIN]: 16,
        [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
      },
    });
  return zlib.createGzip({ flush: zlib.constants.Z_SYNC_FLUSH, windowBits: 14, memLevel: 7 });
}

/** Brotli when the client accepts it, else gzip; none for a client that accepts neither. */
function requestCompressor(req: FastifyRequest): { encoding: string; stream: zlib.BrotliCompress | zlib.Gzip } | null {
  const accepted = acceptedEncoding(req.headers['accept-encoding']);
  return accepted === 'br' || accepted === 'gzip' ? { encoding: accepted, stream: eventCompressor(accepted) } : null;
}

export interface SseOptions {
  /** Milliseconds between keep-alive comments. */
  pingMs?: number;
  /**
   * Compress the stream for a client that accepts it. For streams of many small, similar events
   * (the dashboard's samples); not for log floods, where a flush per event costs more than it saves.
   */
  compress?: boolean;
}

/**
 * Takes over the reply as a server-sent event stream: no-cache, no proxy buffering, a ping
 * every 15 s, and back-pressure respected so a slow client cannot grow our memory. The stream
 * takes a place in the server's live-stream registry first (a 429 beyond its caps, before
 * anything is sent) and ends with an `end` event `{reason: 'revoked'}` when its user loses the right to it.
 */
export function openSse(req: FastifyRequest, reply: FastifyReply, options: SseOptions = {}): SseStream {
  const { pingMs = 15_000 } = options;
  const slot = req.server.liveStreams?.open(req);
  const raw = reply.raw;
  reply.hijack();
  const compressor = options.compress ? requestCompressor(req) : null;
  raw.writeHead(200, {
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-cache, no-transform',
    'X-Accel-Buffering': 'no',
    Connection: 'keep-alive',
    'X-Content-Type-Options': 'nosniff',
    ...(compressor ? { 'Content-Encoding': compressor.encoding, Vary: 'Accept-Encoding' } : {}),
  });
  // What events are written to: the response, or the compressor piped into it (whose back-pressure
  // then reaches us through the pipe).
  const res: Writable = compressor ? compressor.stream : raw;
  if (compressor) {
    compressor.stream.pipe(raw);
    compressor.stream.on('error', () => close());
  }
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
    if (compressor && raw.destroyed) compressor.stream.destroy();
  };
  const ping = setInterval(() => {
    if (!closed) res.write(': ping\n\n');
  }, pingMs);
  ping.unref();
  // The response's close, not the request's: a request emits 'close' once its body is read, which
  // for a POST that streams its body to the engine (a load, a build's context) is long before the end.
  raw.on('close', close);
  raw.on('error', close);

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
            raw.off('close', done);
            resolve();
          };
          res.once('drain', done);
          raw.once('close', done);
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
