import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';

/** Serves the built web app; unknown non-API paths get index.html (the app routes by hash). */
export async function registerStaticWeb(app: FastifyInstance, webDist: string): Promise<void> {
  const index = path.join(webDist, 'index.html');
  if (!fs.existsSync(index)) {
    app.log.warn({ webDist }, 'web app not built; run `npm run build` (npm start does it)');
    app.get('/', { config: { open: true } }, async (_req, reply) =>
      reply.type('text/plain').send('Berth web app is not built. Run `npm start`, which builds it.'),
    );
    return;
  }
  await app.register(fastifyStatic, { root: webDist, prefix: '/', wildcard: false, index: ['index.html'] });
  app.get('/*', { config: { open: true } }, async (req, reply) => {
    if (req.url.startsWith('/api/')) return reply.callNotFound();
    return reply.sendFile('index.html');
  });
}
