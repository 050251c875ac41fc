import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineRoute } from '@berth/contract';
import type { EngineScope } from '../app-services';
import { collectEnvironmentRoutes, registerEnvironmentRoutes, route } from './route';

const whereApi = {
  engine: defineRoute({
    method: 'GET',
    role: 'viewer',
    path: '/api/host/where',
    scope: 'environment',
    tag: 'host',
    summary: 'x',
    response: z.object({ env: z.string() }),
  }),
  berth: defineRoute({
    method: 'GET',
    role: 'viewer',
    path: '/api/where',
    scope: 'global',
    tag: 'settings',
    summary: 'x',
    response: z.object({ scoped: z.boolean() }),
  }),
};

describe('route()', () => {
  it('serves an environment route under /api/environments/:env and at its spec path for local, with req.scope set; a global route has none', async () => {
    const app = Fastify();
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    collectEnvironmentRoutes(app);
    route(app, whereApi.engine, (req) => ({ env: req.scope.id }));
    route(app, whereApi.berth, (req) => {
      // @ts-expect-error: a global route's handler has no environment to ask for.
      const scope: unknown = req.scope;
      return { scoped: scope !== undefined && scope !== null };
    });
    // Only the id is read by the handler above; the rest of an environment's services is not needed here.
    await registerEnvironmentRoutes(app, (env) => ({ id: env }) as EngineScope);
    const get = async (url: string) => (await app.inject({ url })).json<unknown>();
    expect(await get('/api/host/where')).toEqual({ env: 'local' });
    expect(await get('/api/environments/build-2/host/where')).toEqual({ env: 'build-2' });
    expect(await get('/api/where')).toEqual({ scoped: false });
    expect((await app.inject({ url: '/api/environments/build-2/where' })).statusCode).toBe(404);
    await app.close();
  });
});
