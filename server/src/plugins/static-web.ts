import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';

/** Vite names every file under assets/ by its content hash: it never changes under that name. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Everything else (index.html, sw.js, the manifest) is revalidated on every load. */
const REVALIDATE = 'no-cache';

/**
 * Serves the built web app from disk (streamed, never held in memory); unknown non-API paths get
 * index.html (the app routes by hash). The build writes .br and .gz beside each text file; they
 * are sent as they are to browsers that accept them (Content-Encoding), nothing is compressed per request.
 */
export async function registerStaticWeb(app: FastifyInstance, webDist: string): Promise<void> {
  const index = path.join(webDist, 'index.html');
  if (!fs.existsSync(index)) {
    app.log.warn({ webDist }, 'web app not built; run `npm run build` (npm start does it)');
    app.get('/', { config: { open: true } }, async (_req, reply) =>
      reply.type('text/plain').send('Berth web app is not built. Run `npm start`, which builds it.'),
    );
    return;
  }
  const assets = path.join(webDist, 'assets') + path.sep;
  // The files, listed once (as @fastify/static's own routes would be, without a route per file:
  // with .br/.gz ~430 files, ~860 routes held by the router and built at every start).
  const files = new Set(
    (fs.readdirSync(webDist, { recursive: true, withFileTypes: true }) as fs.Dirent[])
      .filter((d) => d.isFile() && !/\.(?:br|gz)$/.test(d.name))
      .map((d) => path.relative(webDist, path.join(d.parentPath, d.name)).split(path.sep).join('/')),
  );
  await app.register(fastifyStatic, {
    root: webDist,
    serve: false,
    index: ['index.html'],
    preCompressed: true,
    cacheControl: false,
    setHeaders: (res, file) => {
      res.setHeader('Cache-Control', file.startsWith(assets) ? IMMUTABLE : REVALIDATE);
      res.setHeader('Vary', 'Accept-Encoding');
    },
  });
  app.get('/*', { config: { open: true } }, async (req, reply) => {
    if (req.url.startsWith('/api/')) return reply.callNotFound();
    const file = (req.params as { '*': string })['*'];
    return reply.sendFile(files.has(file) ? file : 'index.html');
  });
}
