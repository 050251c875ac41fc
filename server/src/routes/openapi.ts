import type { FastifyInstance } from 'fastify';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';

export const DOCS_PREFIX = '/api/docs';

/**
 * The OpenAPI document, generated from the contract's zod schemas, and its interactive
 * reference at /api/docs (JSON at /api/docs/json). Both sit under /api and are not open, so the
 * auth hook guards them. Register before the routes: swagger collects routes as they are added.
 */
export async function registerOpenApi(app: FastifyInstance, version: string): Promise<void> {
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'Berth API',
        version,
        description:
          'Sign in with POST /api/auth/login (cookies; send X-CSRF-TOKEN with the csrf_access_token cookie value on state-changing calls), or send an API key as `Authorization: Bearer <key>`.',
      },
      components: {
        securitySchemes: {
          apiKey: { type: 'http', scheme: 'bearer', description: 'An API key from User > API Keys' },
          cookie: { type: 'apiKey', in: 'cookie', name: 'access_token_cookie' },
        },
      },
      security: [{ apiKey: [] }, { cookie: [] }],
    },
    transform: (input) => {
      // The web app's own routes (static files, the SPA fallback) are not part of the API.
      if (!input.url.startsWith('/api/')) return { schema: { ...input.schema, hide: true }, url: input.url };
      const out = jsonSchemaTransform(input);
      return input.route.config?.open ? { ...out, schema: { ...out.schema, security: [] } } : out;
    },
  });
  // The reference is not a contract route; every signed-in user may read it.
  app.addHook('onRoute', (opts) => {
    if (opts.url.startsWith(DOCS_PREFIX)) opts.config = { ...opts.config, role: 'viewer' };
  });
  await app.register(fastifySwaggerUi, { routePrefix: DOCS_PREFIX, uiConfig: { validatorUrl: null } });
}
