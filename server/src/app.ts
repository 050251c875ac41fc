import Fastify, { LogController, type FastifyInstance } from 'fastify';
import fastifyCookie from '@fastify/cookie';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { trustProxyOption, type Config } from './config';
import type { AppContext } from './context';
import { openDatabase, type Db } from './db/database';
import { createEngine } from './docker/dockerode-engine';
import type { Engine } from './docker/engine';
import { EngineStatus } from './docker/engine-status';
import { detectComposeCli, type ComposeCli } from './compose/cli';
import { requestSerializer } from './lib/log-redact';
import { registerAllowedHosts } from './plugins/allowed-hosts';
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
import { BERTH_VERSION } from './version';

/** Calls that read the compose CLI (projects, Settings > Info) wait for its detection at start. */
const USES_COMPOSE = /^\/api\/(?:environments\/[^/]+\/)?(?:compose|settings\/info)(?:[/?]|$)/;

export interface AppDeps {
  db?: Db;
  docker?: Engine;
  /** Skip detection (tests that do not need compose); a promise stands for a detection still running. */
  compose?: ComposeCli | null | Promise<ComposeCli | null>;
}

/** Builds the whole app; no I/O happens at import time. */
export async function buildApp(config: Config, deps: AppDeps = {}): Promise<{ app: FastifyInstance; ctx: AppContext }> {
  const app = Fastify({
    logger: {
      level: config.logLevel,
      redact: { paths: ['req.headers.authorization', 'req.headers.cookie', 'req.headers["x-csrf-token"]', 'res.headers["set-cookie"]'], remove: true },
      serializers: { req: requestSerializer },
    },
    trustProxy: trustProxyOption(config.trustProxy),
    bodyLimit: 1024 * 1024,
    // The spec's list calls end in '/'; the same path without it is the same resource.
    routerOptions: { ignoreTrailingSlash: true },
    logController: new LogController({ disableRequestLogging: config.logLevel !== 'debug' && config.logLevel !== 'trace' }),
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  const closers: (() => Promise<void> | void)[] = [];
  const db = deps.db ?? openDatabase(config.dataDir);
  const docker = deps.docker ?? createEngine(config);
  const engine = new EngineStatus(docker, app.log);
  const ctx: AppContext = { config, db, docker, engine, compose: null, composeReady: null, log: app.log, version: BERTH_VERSION, onClose: (fn) => closers.push(fn) };
  // The compose CLI is looked for in the background (it takes a second or more), so Berth answers
  // at once; health says `checking` meanwhile and the calls that use the CLI wait for it.
  const detection = deps.compose !== undefined ? deps.compose : detectComposeCli(config.cliEnv);
  if (detection instanceof Promise) {
    ctx.composeReady = detection.then((cli) => {
      ctx.compose = cli;
      ctx.composeReady = null;
    });
  } else ctx.compose = detection;

  app.addHook('onClose', async () => {
    engine.stop();
    for (const fn of closers.reverse()) await fn();
    if (!deps.db) db.close();
  });

  await app.register(fastifyCookie);
  app.addHook('preHandler', async (req) => {
    if (ctx.composeReady && USES_COMPOSE.test(req.url)) await ctx.composeReady;
  });
  registerErrorHandler(app);
  registerSecurityHeaders(app);
  registerAllowedHosts(app, config);
  const auth = await registerAuth(app, ctx);
  await registerOpenApi(app, ctx);

  healthRoutes(app, ctx);
  settingsRoutes(app, ctx);
  appsRoutes(app, ctx);
  templatesRoutes(app, ctx);
  deployRoutes(app, ctx);
  variablesRoutes(app, ctx);
  resourceRoutes(app, ctx);
  pruneRoutes(app, ctx);
  composeRoutes(app, ctx);
  authRoutes(app, ctx, auth);

  await registerStaticWeb(app, config.webDist);
  // The first check runs in the background too; a health call checks for itself.
  engine.start();
  return { app, ctx };
}
