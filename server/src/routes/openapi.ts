import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest, type RouteOptions } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { API_TAGS } from '@berth/contract';

export const DOCS_PREFIX = '/api/docs';

/** Response headers of the reference's own instance not to pass on (the outer reply sets its own). */
const HOP_HEADERS = new Set(['content-length', 'transfer-encoding', 'connection', 'keep-alive', 'date']);

/** What the reference needs of a route: no handler, no hooks. */
type RouteEntry = Pick<RouteOptions, 'method' | 'url' | 'schema' | 'config'>;

/**
 * The OpenAPI document, generated from the contract's zod schemas, and its interactive
 * reference at /api/docs (JSON at /api/docs/json). Both sit under /api and are not open, so the
 * auth hook guards them; every signed-in user may read them. Register before the routes: the
 * routes are noted as they are added.
 *
 * @fastify/swagger and @fastify/swagger-ui (with the YAML and schema-resolving code they bring)
 * load on the first request under /api/docs, not at start: most processes never serve the
 * reference, and both kept ~2 MB of memory from start. The first request builds a small Fastify
 * instance of its own holding the noted routes (schemas only) and both plugins, and every docs
 * request is answered by it (inject: in process, no socket).
 */
export async function registerOpenApi(app: FastifyInstance, version: string): Promise<void> {
  const routes: RouteEntry[] = [];
  app.addHook('onRoute', (opts) => {
    // Fastify's HEAD twins of GET routes are left out of the document, as @fastify/swagger does.
    if (!opts.url.startsWith('/api/') || opts.url.startsWith(DOCS_PREFIX) || opts.method === 'HEAD') return;
    routes.push({ method: opts.method, url: opts.url, schema: opts.schema, config: opts.config });
  });

  let reference: Promise<FastifyInstance> | null = null;
  const serve = async (req: FastifyRequest, reply: FastifyReply) => {
    reference ??= buildReference(routes, version).catch((err: unknown) => {
      reference = null;
      throw err;
    });
    const res = await (
      await reference
    ).inject({ method: req.method as 'GET' | 'HEAD', url: req.url, headers: { accept: req.headers.accept ?? '*/*' } });
    for (const [name, value] of Object.entries(res.headers))
      if (value !== undefined && !HOP_HEADERS.has(name)) void reply.header(name, value);
    return reply.code(res.statusCode).send(res.rawPayload);
  };
  const config = { role: 'viewer' as const };
  app.get(DOCS_PREFIX, { config }, serve);
  app.get(`${DOCS_PREFIX}/*`, { config }, serve);
}

async function buildReference(routes: RouteEntry[], version: string): Promise<FastifyInstance> {
  const [{ default: fastifySwagger }, { default: fastifySwaggerUi }] = await Promise.all([
    import('@fastify/swagger'),
    import('@fastify/swagger-ui'),
  ]);
  const ref = Fastify({ logger: false });
  // The routes are only described here, never run: their schemas are not compiled.
  ref.setValidatorCompiler(() => () => true);
  ref.setSerializerCompiler(() => (data) => JSON.stringify(data));
  await ref.register(fastifySwagger, {
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
      // One group per domain, in the contract's order; each route names its own (defineRoute's tag).
      tags: Object.entries(API_TAGS).map(([name, description]) => ({ name, description })),
    },
    transform: (input) => {
      const out = jsonSchemaTransform(input);
      return input.route.config?.open ? { ...out, schema: { ...out.schema, security: [] } } : out;
    },
  });
  await ref.register(fastifySwaggerUi, { routePrefix: DOCS_PREFIX, uiConfig: { validatorUrl: null } });
  for (const r of routes) ref.route({ ...r, handler: async () => undefined });
  await ref.ready();
  return ref;
}
