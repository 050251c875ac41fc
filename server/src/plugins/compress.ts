import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { pipeline, type Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { acceptedEncoding } from '../lib/accept-encoding';

/** Bodies smaller than this go out as they are (the headers would eat the gain). */
const THRESHOLD = 1024;
const COMPRESSIBLE = /^(application\/(json|x-ndjson)|text\/(plain|csv))\b/;
const BROTLI_PARAMS = {
  [zlib.constants.BROTLI_PARAM_QUALITY]: 4,
  [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
};
const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

const isStream = (p: unknown): p is Readable => typeof (p as Readable | null)?.pipe === 'function';

/**
 * JSON answers and text downloads above 1 KB go out brotli- (quality 4, about gzip's cost) or
 * gzip-compressed when the client accepts it (the app list at 500 containers: 360 KB raw);
 * streamed bodies are compressed as they flow. Request bodies are never inflated (no zip bombs
 * through an upload); the static files are precompressed (static-web.ts) and event streams are
 * hijacked, so neither passes here. One onSend hook instead of @fastify/compress, whose ~30
 * modules and per-route setup cost ~5 MiB of RSS at start (measured).
 */
export function registerCompression(app: FastifyInstance): void {
  app.addHook('onSend', async (req, reply, payload) => {
    if (payload === null || payload === undefined || req.method === 'HEAD') return payload;
    if (reply.hasHeader('content-encoding') || reply.statusCode === 204 || reply.statusCode === 304) return payload;
    if (!COMPRESSIBLE.test(String(reply.getHeader('content-type') ?? ''))) return payload;
    const encoding = acceptedEncoding(req.headers['accept-encoding']);
    if (!encoding) return payload;
    if (isStream(payload)) {
      const stream = encoding === 'br' ? zlib.createBrotliCompress({ params: BROTLI_PARAMS }) : zlib.createGzip();
      // pipeline, not pipe: when the client leaves, Fastify destroys the compressor, and the source
      // (an engine log stream, a file) must go with it instead of staying open, paused.
      pipeline(payload, stream, () => {});
      reply.header('content-encoding', encoding).header('vary', 'accept-encoding').removeHeader('content-length');
      return stream;
    }
    const body = typeof payload === 'string' ? Buffer.from(payload) : (payload as Buffer);
    if (!Buffer.isBuffer(body) || body.length < THRESHOLD) return payload;
    const out = encoding === 'br' ? await brotli(body, { params: BROTLI_PARAMS }) : await gzip(body);
    reply.header('content-encoding', encoding).header('vary', 'accept-encoding').removeHeader('content-length');
    return out;
  });
}
