import Fastify, { LogController, type FastifyInstance } from 'fastify';
import fastifyCookie from '@fastify/cookie';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Config } from './config';
import type { AppContext } from './context';
import { buildServices, type AppDeps, type Services } from './app-services';
import { registerAuth } from './plugins/auth';
import { registerErrorHandler } from './plugins/error-handler';
import { registerSecurityHeaders } from './plugins/security-headers';
import { registerStaticWeb } from './plugins/static-web';
import { authRoutes } from './routes/auth';
import { composeRoutes } from './routes/compose';
import { healthRoutes } from './routes/health';
import { settingsRoutes } from './routes/settings';
import { appsRoutes } from './routes/apps';
import { templatesRoutes } from './routes/templates';
import { deployRoutes } from './routes/deploy';
import { variablesRoutes } from './routes/variables';
import { pruneRoutes } from './routes/prune';
import { resourceRoutes } from './routes/resources';
import { registerOpenApi } from './routes/openapi';

/** Builds the whole app; no I/O happens at import time. buildServices is the one composition root. */
export async function buildApp(config: Config, deps: AppDeps = {}): Promise<{ app: FastifyInstance; ctx: AppContext; services: Services }> {
  const app = Fastify({
    logger: {
      level: config.logLevel,
      redact: { paths: ['req.headers.authorization', 'req.headers.cookie', 'req.headers["x-csrf-token"]', 'res.headers["set-cookie"]'], remove: true },
    },
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
    // The spec's list calls end in '/'; the same path without it is the same resource.
    routerOptions: { ignoreTrailingSlash: true },
    logController: new LogController({ disableRequestLogging: config.logLevel !== 'debug' && config.logLevel !== 'trace' }),
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  const { ctx, services, close } = await buildServices(config, app.log, deps);
  app.addHook('onClose', close);

  await app.register(fastifyCookie);
  registerErrorHandler(app);
  registerSecurityHeaders(app);
  registerAuth(app, ctx, services.auth);
  await registerOpenApi(app, ctx.version);

  healthRoutes(app, services);
  settingsRoutes(app, services);
  appsRoutes(app, services);
  templatesRoutes(app, services);
  deployRoutes(app, services);
  variablesRoutes(app, services);
  resourceRoutes(app, services);
  pruneRoutes(app, services);
  composeRoutes(app, services);
  authRoutes(app, services);

  await registerStaticWeb(app, config.webDist);
  await ctx.engine.check();
  ctx.engine.start();
  return { app, ctx, services };
}
