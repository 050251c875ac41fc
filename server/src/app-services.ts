import type { FastifyBaseLogger } from 'fastify';
import { LOCAL_ENVIRONMENT } from '@berth/contract';
import { DEFAULT_DOCKER_HOST, type Config } from './config';
import type { AppContext } from './context';
import type { ComposeCli } from './compose/cli';
import { ComposeDetection } from './compose/detection';
import { openDatabase, type Db } from './db/database';
import { StatsHistoryRepo } from './db/stats-history-repo';
import { createEngine } from './docker/dockerode-engine';
import type { Engine } from './docker/engine';
import { EngineStatus } from './docker/engine-status';
import { RegexPool } from './services/logs/log-search';
import { createMetrics } from './services/stats';
import type { MetricsService } from './services/stats/metrics';
import { createAuthService, type AuthService } from './services/auth';
import { createAudit } from './services/audit';
import { createAutoHealDefaults, type AutoHealDefaults } from './services/auto-heal';
import type { AuditService } from './services/audit/audit';
import { createEnvironments } from './services/environments';
import type { EnvironmentScopes } from './services/environments/environment-scopes';
import { StorageStatus } from './services/storage/storage-status';
import { composeFailureNotifier, createNotifications, type NotificationService } from './services/notifications';
import { loadSigningKey } from './services/auth/tokens';
import type { EnvironmentsService } from './services/environments/environments';
import type { AgentEnvironments } from './services/environments/agent-environments';
import type { AgentHub } from './services/agents/agent-hub';
import { createGit, type GitServices } from './services/git';
import { RevisionStore } from './services/revisions/store';
import { createSelfUpdate } from './services/self-update';
import type { SelfUpdateService } from './services/self-update/self-update';
import { createSettings } from './services/settings';
import type { ServerInfoService } from './services/settings/server-info';
import type { SettingsExportService } from './services/settings/settings-export';
import { createTemplates } from './services/templates';
import type { TemplatesService } from './services/templates/templates';
import { createTerminals } from './services/terminal';
import type { TerminalSessions } from './services/terminal/terminal-sessions';
import { createStreams } from './services/streams';
import type { StreamRegistry } from './services/streams/registry';
import { createVariables } from './services/variables';
import type { VariablesService } from './services/variables/variables';
import { readBerthVersion } from './version';
import { createRegistries } from './services/registries';
import { SYSTEM_ACTOR } from './services/policy/policy';
import { createBackups, type BackupsService, type DestinationsService } from './services/backups';
import type { RegistriesService } from './services/registries/registries';
import { createPolicies } from './services/policy';
import type { PolicyService } from './services/policy/policy';

import { createLogArchiveStore } from './services/log-archive';
import { AfterStart } from './lib/after-start';
export { buildScope, gitScopeParts, type EngineScope, type ScopeShared } from './environment-scope';
import { buildScope, gitScopeParts, type EngineScope, type ScopeShared } from './environment-scope';

export interface AppDeps {
  db?: Db;
  docker?: Engine;
  /** Skip detection (tests that do not need compose); a promise stands for a detection still running. */
  compose?: ComposeCli | null | Promise<ComposeCli | null>;
  /** Where the log goes instead of stdout (tests read it for secrets). */
  logStream?: { write(line: string): void };
}

/** Every service the route modules use, built once per app by buildServices. */
export interface Services {
  serverInfo: ServerInfoService;
  auth: AuthService;
  variables: VariablesService;
  templates: TemplatesService;
  settings: SettingsExportService;
  selfUpdate: SelfUpdateService;
  /** The audit log; `audit.record()` for features that change state outside a request. */
  audit: AuditService;
  /** Whether DATA_DIR has room to write (health, and the refusal of changes while it has none). */
  storage: StorageStatus;
  /** Notification channels, rules and deliveries; `notifications.notify()` for features that report something. */
  notifications: NotificationService;
  /** Prometheus metrics of the local environment. */
  metrics: MetricsService;
  /** The global auto-heal default (each environment's auto-heal is in its scope). */
  autoHealDefaults: AutoHealDefaults;
  /** Every open live stream (SSE, WebSocket): caps, and their end when the holder's rights change. */
  streams: StreamRegistry;
  /** Open web terminals of every environment: the per-user cap and the idle timeout. */
  terminals: TerminalSessions;
  /** The regex workers of every log search: its searches per user (diagnostics, tests). */
  regexPool: RegexPool;
  /** The environments (stored ones and `local`): their CRUD and status. */
  environmentsAdmin: EnvironmentsService;
  /** The agents' tunnels (agent environments), and adding, re-enrolling and revoking them. */
  agents: AgentHub;
  agentEnvironments: AgentEnvironments;
  /** Every environment's engine-backed services, built on first use. */
  environments: EnvironmentScopes<EngineScope>;
  /** Each environment's policy for non-admins (GET/PUT /api/environments/{env}/policy). */
  policies: PolicyService;
  /** Stored registry credentials: CRUD, test, browse (each environment's pulls use them through ctx.registryAuth). */
  registries: RegistriesService;
  /** Git-backed projects: credentials, sources, webhook and polling sync. */
  git: GitServices;
  /** Backup jobs, archives, restores and drills (issue 35). */
  backups: BackupsService;
  /** Where backups are kept (folder, SFTP). */
  backupDestinations: DestinationsService;
}

export interface BuiltServices {
  ctx: AppContext;
  services: Services;
  /** Stops the engine watch, runs every cleanup (last registered first) and closes the database it opened. */
  close: () => Promise<void>;
  /** Runs what waits for the server to listen (ctx.afterStart): schedulers, start-up sweeps, the stats recorder. */
  startBackground: () => void;
}

/**
 * The composition root: opens the database, makes the engine client, detects the compose CLI and
 * builds every repository and service exactly once. Route modules receive the result; they
 * construct nothing.
 */
export async function buildServices(
  config: Config,
  log: FastifyBaseLogger,
  deps: AppDeps = {},
): Promise<BuiltServices> {
  const closers: (() => Promise<void> | void)[] = [];
  const db = deps.db ?? openDatabase(config.dataDir);
  const docker = deps.docker ?? createEngine(config);
  const engine = new EngineStatus(docker, log, config.dockerHost ?? DEFAULT_DOCKER_HOST);
  const background = new AfterStart(log);
  const close = async () => {
    background.stop();
    engine.stop();
    for (const fn of closers.reverse()) await fn();
    if (!deps.db) db.close();
  };
  try {
    const ctx: AppContext = {
      config,
      db,
      docker,
      engine,
      compose: null,
      composeReady: null,
      log,
      version: readBerthVersion(),
      onClose: (fn) => closers.push(fn),
      afterStart: background.add,
    };
    // The compose CLI is looked for in the background (it takes a second or more), so Berth answers
    // at once; health says `checking` meanwhile and the calls that use the CLI wait for it.
    if (deps.compose === undefined) {
      const detection = new ComposeDetection(ctx, config.cliEnv, config.composeProbeTimeoutMs);
      detection.start();
      ctx.composeRetry = () => detection.retryNow();
      closers.push(() => detection.stop());
    }
    const given = deps.compose;
    if (given instanceof Promise) {
      ctx.composeReady = given.then((cli) => {
        ctx.compose = cli;
        ctx.composeReady = null;
      });
    } else if (given !== undefined) ctx.compose = given;

    const variables = createVariables(ctx);

    const historyRepo = new StatsHistoryRepo(config.dataDir);
    closers.push(() => historyRepo.close());
    const storage = new StorageStatus(config.dataDir);
    const audit = createAudit(ctx, storage);
    closers.push(() => audit.close());
    const streams = createStreams(ctx);
    closers.push(() => streams.close());
    const auth = await createAuthService(ctx, streams);
    // The auth service made the signing key on a first start; this reads it back.
    const signingKey = loadSigningKey(config.dataDir, config.secretKey, log);
    const notifications = createNotifications(ctx, signingKey);
    closers.push(() => notifications.close());
    const terminals = createTerminals(log, {
      maxPerUser: config.terminalMaxSessionsPerUser,
      idleMs: config.terminalIdleMs,
    });
    const regexPool = new RegexPool();
    closers.push(() => regexPool.close());
    const policies = createPolicies(ctx);
    const revs = new RevisionStore(db, signingKey, config.revisionsKept);
    const logArchives = createLogArchiveStore(ctx);
    // Its scopes are built on first use, after `environments` below is made.
    const git = createGit(ctx, signingKey, {
      scope: (id) => gitScopeParts(environments.get(id)),
      audit: (r) => audit.record(r),
      onFailed: (id, f) => composeFailureNotifier(notifications, id)(f),
    });
    const shared: ScopeShared = {
      variables,
      notifications,
      audit,
      historyRepo,
      terminals,
      regexPool,
      policies,
      revs,
      logArchives,
      onRemoved: (environment, kind, name) => git.sources.forget(environment, kind, name),
      gitSnapshots: git.snapshots,
    };
    const registries = createRegistries(ctx, signingKey);
    const {
      scopes: environments,
      admin: environmentsAdmin,
      agents,
      agentEnvironments,
    } = createEnvironments(ctx, signingKey, (id, envCtx) => buildScope(id, registries.bind(id, envCtx), shared));
    closers.push(() => agents.close());
    closers.push(() => environments.closeAll());
    environments.get(LOCAL_ENVIRONMENT);
    environmentsAdmin.watchAll();
    const metrics = createMetrics(() => ({ ...environments.local, docker: environments.local.ctx.docker }));
    closers.push(() => metrics.close());

    const { backups, destinations: backupDestinations } = createBackups(ctx, signingKey, notifications, (id) => {
      const scope = environments.get(id);
      return {
        docker: scope.ctx.docker,
        helpers: scope.helpers,
        actor: SYSTEM_ACTOR,
        composeDir: scope.ctx.config.composeDir,
      };
    });
    ctx.afterStart(() => backups.start());
    closers.push(() => backups.stop());
    const { serverInfo, settings } = createSettings(ctx, () => environments.local.hub.source, storage);
    const services: Services = {
      serverInfo,
      auth,
      streams,
      regexPool,
      variables,
      templates: createTemplates(ctx),
      settings,
      selfUpdate: createSelfUpdate(ctx),
      audit,
      storage,
      notifications,
      metrics,
      autoHealDefaults: createAutoHealDefaults(ctx),
      terminals: terminals.sessions,
      environmentsAdmin,
      environments,
      agents,
      agentEnvironments,
      policies,
      registries: registries.admin,
      git,
      backups,
      backupDestinations,
    };
    return { ctx, services, close, startBackground: background.start };
  } catch (err) {
    await close();
    throw err;
  }
}
