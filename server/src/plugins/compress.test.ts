import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { registerCompression } from './compress';

const apps: ReturnType<typeof Fastify>[] = [];
afterEach(async () => {
  await Promise.all(apps.splice(0).map((a) => a.close()));
});

describe('registerCompression', () => {
  it('destroys a streamed body whose compressed download the client left', async () => {
    // A download that never ends on its own (as a long log read from the engine).
    const source = new Readable({ read() {} });
    const app = Fastify();
    apps.push(app);
    registerCompression(app);
    app.get('/dl', (_req, reply) => {
      source.push('x'.repeat(64 * 1024));
      return reply.type('text/plain').send(source);
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as AddressInfo;
    const encoding = await new Promise<string | undefined>((resolve, reject) => {
      const req = http.get({ port, host: '127.0.0.1', path: '/dl', headers: { 'accept-encoding': 'gzip' } }, (res) => {
        res.once('data', () => {
          req.destroy();
          resolve(res.headers['content-encoding']);
        });
      });
      req.on('error', reject);
    });
    expect(encoding).toBe('gzip');
    const deadline = Date.now() + 2000;
    while (!source.destroyed && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(source.destroyed).toBe(true);
  }, 30_000);
});
