import Fastify, { LogController, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import fastifyCookie from '@fastify/cookie';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { trustProxyOption, type Config } from './config';
import type { AppContext } from './context';
import { buildServices, type AppDeps, type Services } from './app-services';
import { requestSerializer } from './lib/log-redact';
import { registerAllowedHosts } from './plugins/allowed-hosts';
import { registerCompression } from './plugins/compress';
import { registerAudit } from './plugins/audit';
import { registerAuth } from './plugins/auth';
import { registerErrorHandler } from './plugins/error-handler';
import { registerGracefulClose } from './plugins/graceful-close';
import { registerSecurityHeaders } from './plugins/security-headers';
import { registerStaticWeb } from './plugins/static-web';
import { registerWebSockets } from './plugins/websocket';
import { authRoutes } from './routes/auth';
import { usersRoutes } from './routes/users';
import { revisionsRoutes } from './routes/revisions';
import { composeRoutes } from './routes/compose';
import { gitRoutes } from './routes/git';
import { autoUpdateRoutes } from './routes/auto-update';
import { autoHealRoutes } from './routes/auto-heal';
import { swarmRoutes } from './routes/swarm';
import { healthRoutes } from './routes/health';
import { settingsRoutes } from './routes/settings';
import { appsRoutes } from './routes/apps';
import { logArchiveRoutes } from './routes/log-archive';
import { appChangesRoutes } from './routes/app-changes';
import { fileRoutes } from './routes/files';
import { templatesRoutes } from './routes/templates';
import { deployRoutes } from './routes/deploy';
import { variablesRoutes } from './routes/variables';
import { pruneRoutes } from './routes/prune';
import { imageTransferRoutes, imageUploadParsers } from './routes/image-transfer';
import { resourceRoutes } from './routes/resources';
import { registerOpenApi } from './routes/openapi';
import { eventsRoutes } from './routes/events';
import { auditRoutes } from './routes/audit';
import { notificationsRoutes } from './routes/notifications';
import { hostRoutes } from './routes/host';
import { terminalRoutes } from './routes/terminal';
import { policyRoutes } from './routes/policy';
import { environmentsRoutes } from './routes/environments';
import { registriesRoutes } from './routes/registries';
import { backupsRoutes } from './routes/backups';
import { collectEnvironmentRoutes, registerEnvironmentRoutes } from './lib/route';

export type { AppDeps } from './app-services';

/**
 * Every route validates and serializes through its zod schemas (set again below, typed). Given
 * as the root compilers too, Fastify never loads its default ones (ajv and fast-json-stringify:
 * ~250 modules held for nothing). Fastify types these factories for ajv's arguments; the zod
 * compilers take the same route schema object.
 */
const ZOD_COMPILERS = {
  buildValidator: () => validatorCompiler,
  buildSerializer: () => serializerCompiler,
} as unknown as NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>;

/** Builds the whole app; no I/O happens at import time. buildServices is the one composition root. */
export async function buildApp(
  config: Config,
  deps: AppDeps = {},
): Promise<{ app: FastifyInstance; ctx: AppContext; services: Services; startBackground: () => void }> {
  const app = Fastify({
    logger: {
      level: config.logLevel,
      redact: {
        paths: [
          'req.headers.authorization',
          'req.headers.cookie',
          'req.headers["x-csrf-token"]',
          'res.headers["set-cookie"]',
        ],
        remove: true,
      },
      serializers: { req: requestSerializer },
      ...(deps.logStream ? { stream: deps.logStream } : {}),
    },
    trustProxy: trustProxyOption(config.trustProxy),
    bodyLimit: 1024 * 1024,
    // The spec's list calls end in '/'; the same path without it is the same resource.
    routerOptions: { ignoreTrailingSlash: true },
    logController: new LogController({
      disableRequestLogging: config.logLevel !== 'debug' && config.logLevel !== 'trace',
    }),
    schemaController: { compilersFactory: ZOD_COMPILERS },
    // Calls arriving while Berth closes get a JSON 503 of ours (plugins/graceful-close.ts).
    return503OnClosing: false,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  const { ctx, services, close, startBackground } = await buildServices(config, app.log, deps);
  app.addHook('onClose', close);
  // Schedulers and start-up sweeps wait until Berth listens (an app only injected into starts them itself).
  app.addHook('onListen', async () => startBackground());
  registerGracefulClose(app);

  await app.register(fastifyCookie);
  registerCompression(app);
  await registerWebSockets(app, services.streams);
  // Calls that may run the compose CLI (their routes say so) wait for its detection at start.
  app.addHook('preHandler', async (req) => {
    if (req.routeOptions.config.usesCompose !== true) return;
    if (ctx.composeReady) await ctx.composeReady;
    // A slow CLI at start: the first compose request looks again rather than waiting for the back-off.
    if (ctx.composeUnknown && ctx.composeRetry) await ctx.composeRetry();
  });
  registerErrorHandler(app, services.storage);
  registerSecurityHeaders(app);
  registerAllowedHosts(app, config);
  registerAuth(app, ctx, services.auth);
  registerAudit(app, {
    audit: services.audit,
    storage: services.storage,
    accountName: (name) => services.auth.users.accountName(name),
  });
  await registerOpenApi(app, ctx.version);
  collectEnvironmentRoutes(app);

  healthRoutes(app, services);
  settingsRoutes(app, services);
  appsRoutes(app);
  logArchiveRoutes(app);
  appChangesRoutes(app);
  fileRoutes(app);
  templatesRoutes(app, services);
  deployRoutes(app);
  variablesRoutes(app, services);
  resourceRoutes(app);
  imageTransferRoutes(app);
  pruneRoutes(app);
  composeRoutes(app, services);
  revisionsRoutes(app);
  gitRoutes(app, services);
  autoUpdateRoutes(app, services);
  autoHealRoutes(app, services);
  swarmRoutes(app, services);
  hostRoutes(app, services);
  terminalRoutes(app, services);
  authRoutes(app, services);
  eventsRoutes(app);
  policyRoutes(app, services);
  auditRoutes(app, services);
  notificationsRoutes(app, services);
  usersRoutes(app, services);
  environmentsRoutes(app, services);
  registriesRoutes(app, services);
  backupsRoutes(app, services);
  await registerEnvironmentRoutes(app, (env) => services.environments.get(env), imageUploadParsers);

  await registerStaticWeb(app, config.webDist);
  // The first engine check runs in the background too; a health call checks for itself.
  ctx.engine.start();
  return { app, ctx, services, startBackground };
}
