import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config';
import type { AppContext } from './context';
import { detectComposeCli, type ComposeCli } from './compose/cli';
import { openDatabase, type Db } from './db/database';
import { SettingsImportRepo } from './db/settings-import-repo';
import { TemplatesRepo } from './db/templates-repo';
import { VariablesRepo } from './db/variables-repo';
import { createEngine } from './docker/dockerode-engine';
import type { Engine } from './docker/engine';
import { EngineStatus } from './docker/engine-status';
import type { EngineEvents } from './docker/events';
import type { StatsHub } from './docker/stats-hub';
import { AppsService } from './services/apps';
import { AppStreams } from './services/apps-live';
import { createAppsRuntime } from './services/apps-runtime';
import { AppUpdateService } from './services/apps-update';
import { createAuthService, type AuthService } from './services/auth';
import { DeployService } from './services/deploy';
import { ImagesService } from './services/images';
import { NetworksService } from './services/networks';
import { ProjectsService } from './services/projects';
import { ProjectActionsService } from './services/projects-actions';
import { PruneService } from './services/prune';
import { SelfUpdateService } from './services/self-update';
import { ServerInfoService } from './services/server-info';
import { SettingsExportService } from './services/settings-export';
import { TemplatesService } from './services/templates';
import { VariablesService } from './services/variables';
import { VolumesService } from './services/volumes';
import { readBerthVersion } from './version';

export interface AppDeps {
  db?: Db;
  docker?: Engine;
  /** Skip detection (tests that do not need compose); a promise stands for a detection still running. */
  compose?: ComposeCli | null | Promise<ComposeCli | null>;
}

/** Every service the route modules use, built once per app by buildServices. */
export interface Services {
  serverInfo: ServerInfoService;
  auth: AuthService;
  apps: AppsService;
  appUpdates: AppUpdateService;
  appStreams: AppStreams;
  /** The shared engine event subscription and stats hub (one engine stream per running container). */
  events: EngineEvents;
  hub: StatsHub;
  projects: ProjectsService;
  projectActions: ProjectActionsService;
  images: ImagesService;
  volumes: VolumesService;
  networks: NetworksService;
  prune: PruneService;
  deploy: DeployService;
  variables: VariablesService;
  templates: TemplatesService;
  settings: SettingsExportService;
  selfUpdate: SelfUpdateService;
}

export interface BuiltServices {
  ctx: AppContext;
  services: Services;
  /** Stops the engine watch, runs every cleanup (last registered first) and closes the database it opened. */
  close: () => Promise<void>;
}

/**
 * The composition root: opens the database, makes the engine client, detects the compose CLI and
 * builds every repository and service exactly once. Route modules receive the result; they
 * construct nothing.
 */
export async function buildServices(config: Config, log: FastifyBaseLogger, deps: AppDeps = {}): Promise<BuiltServices> {
  const closers: (() => Promise<void> | void)[] = [];
  const db = deps.db ?? openDatabase(config.dataDir);
  const docker = deps.docker ?? createEngine(config);
  const engine = new EngineStatus(docker, log);
  const close = async () => {
    engine.stop();
    for (const fn of closers.reverse()) await fn();
    if (!deps.db) db.close();
  };
  try {
    const ctx: AppContext = { config, db, docker, engine, compose: null, composeReady: null, log, version: readBerthVersion(), onClose: (fn) => closers.push(fn) };
    // The compose CLI is looked for in the background (it takes a second or more), so Berth answers
    // at once; health says `checking` meanwhile and the calls that use the CLI wait for it.
    const detection = deps.compose !== undefined ? deps.compose : detectComposeCli(config.cliEnv);
    if (detection instanceof Promise) {
      ctx.composeReady = detection.then((cli) => {
        ctx.compose = cli;
        ctx.composeReady = null;
      });
    } else ctx.compose = detection;

    const templatesRepo = new TemplatesRepo(db);
    const variablesRepo = new VariablesRepo(db);
    const variables = new VariablesService(variablesRepo);

    const runtime = createAppsRuntime(ctx);
    ctx.onClose(() => runtime.close());
    const apps = new AppsService(ctx, runtime);
    const projects = new ProjectsService(ctx);

    const services: Services = {
      serverInfo: new ServerInfoService(ctx),
      auth: await createAuthService(ctx),
      apps,
      appUpdates: new AppUpdateService(ctx, apps, runtime),
      appStreams: new AppStreams(ctx, runtime),
      events: runtime.events,
      hub: runtime.hub,
      projects,
      projectActions: new ProjectActionsService(ctx, projects),
      images: new ImagesService(docker),
      volumes: new VolumesService(docker),
      networks: new NetworksService(docker),
      prune: new PruneService(docker),
      deploy: new DeployService(docker, variables, log),
      variables,
      templates: new TemplatesService(templatesRepo, {
        allowLoopback: config.templateFetchAllowLoopback,
        fetchTimeoutMs: config.templateFetchTimeoutMs,
        userAgent: `Berth/${ctx.version}`,
      }),
      settings: new SettingsExportService(templatesRepo, variablesRepo, new SettingsImportRepo(db)),
      selfUpdate: new SelfUpdateService(ctx),
    };
    return { ctx, services, close };
  } catch (err) {
    await close();
    throw err;
  }
}
