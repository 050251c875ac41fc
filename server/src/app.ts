import Fastify, { LogController, type FastifyInstance } from 'fastify';
import fastifyCookie from '@fastify/cookie';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Config } from './config';
import type { AppContext } from './context';
import { openDatabase, type Db } from './db/database';
import { createEngine } from './docker/dockerode-engine';
import type { Engine } from './docker/engine';
import { EngineStatus } from './docker/engine-status';
import { detectComposeCli, type ComposeCli } from './compose/cli';
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

export interface AppDeps {
  db?: Db;
  docker?: Engine;
  /** Skip detection (tests that do not need compose). */
  compose?: ComposeCli | null;
}

/** Builds the whole app; no I/O happens at import time. */
export async function buildApp(config: Config, deps: AppDeps = {}): Promise<{ app: FastifyInstance; ctx: AppContext }> {
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

  const closers: (() => Promise<void> | void)[] = [];
  const db = deps.db ?? openDatabase(config.dataDir);
  const docker = deps.docker ?? createEngine(config);
  const engine = new EngineStatus(docker, app.log);
  const compose = deps.compose !== undefined ? deps.compose : await detectComposeCli(config.cliEnv);
  const ctx: AppContext = { config, db, docker, engine, compose, log: app.log, version: BERTH_VERSION, onClose: (fn) => closers.push(fn) };

  app.addHook('onClose', async () => {
    engine.stop();
    for (const fn of closers.reverse()) await fn();
    if (!deps.db) db.close();
  });

  await app.register(fastifyCookie);
  registerErrorHandler(app);
  registerSecurityHeaders(app);
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
  await engine.check();
  engine.start();
  return { app, ctx };
}
