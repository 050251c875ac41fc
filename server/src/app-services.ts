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
import type { EngineEvents } from './docker/events';
import type { StatsHub } from './docker/stats-hub';
import { createApps } from './services/apps';
import type { AppsService } from './services/apps/apps';
import type { AppStreams } from './services/apps/apps-live';
import { createLogs } from './services/logs';
import type { AppLogsService } from './services/logs/app-logs';
import { RegexPool } from './services/logs/log-search';
import type { ProjectLogsService } from './services/logs/project-logs';
import { createHost } from './services/host';
import type { HostService } from './services/host/host';
import { createMetrics } from './services/stats';
import type { MetricsService } from './services/stats/metrics';
import type { StatsHistory } from './services/stats/stats-history';
import type { AppUpdateService } from './services/apps/apps-update';
import type { AppChangesService } from './services/apps/app-changes';
import type { AppFilesService } from './services/files/app-files';
import { AppDiagnosisService } from './services/apps/why-stopped';
import type { VolumeFilesService } from './services/files/volume-files';
import { createAuthService, type AuthService } from './services/auth';
import { createAutoUpdate } from './services/auto-update';
import type { AutoUpdateService } from './services/auto-update/auto-update';
import { createBatch } from './services/batch';
import type { BatchService } from './services/batch/batch';
import { createAudit } from './services/audit';
import type { AuditService } from './services/audit/audit';
import { createDeploy } from './services/deploy';
import type { DeployService } from './services/deploy/deploy';
import { createEnvironments } from './services/environments';
import type { EnvironmentScopes } from './services/environments/environment-scopes';
import { createEventHistory } from './services/events';
import type { EventHistory } from './services/events/event-history';
import { StorageStatus } from './services/storage/storage-status';
import { composeFailureNotifier, createNotifications, type NotificationService } from './services/notifications';
import { loadSigningKey } from './services/auth/tokens';
import type { EnvironmentsService } from './services/environments/environments';
import type { AgentEnvironments } from './services/environments/agent-environments';
import type { AgentHub } from './services/agents/agent-hub';
import { createGit, type GitServices } from './services/git';
import { createImages, createImageTransfer } from './services/images';
import type { ImagesService } from './services/images/images';
import type { ImageTransferService } from './services/images/image-transfer';
import { createNetworks } from './services/networks';
import type { NetworksService } from './services/networks/networks';
import { createProjects } from './services/projects';
import type { ProjectsService } from './services/projects/projects';
import type { ProjectActionsService } from './services/projects/projects-actions';
import type { ProjectPlanService } from './services/projects/project-plan';
import type { ProjectEnvService } from './services/projects/project-env';
import type { ProjectRevisions } from './services/revisions/project-revisions';
import type { ProjectRollback } from './services/revisions/project-rollback';
import { RevisionStore } from './services/revisions/store';
import { createPrune } from './services/prune';
import type { PruneService } from './services/prune/prune';
import { createSelfUpdate } from './services/self-update';
import type { SelfUpdateService } from './services/self-update/self-update';
import { createSettings } from './services/settings';
import type { ServerInfoService } from './services/settings/server-info';
import type { SettingsExportService } from './services/settings/settings-export';
import { createSwarm } from './services/swarm';
import type { SwarmClusterService } from './services/swarm/swarm';
import type { SwarmObjectsService } from './services/swarm/swarm-objects';
import type { SwarmServicesService } from './services/swarm/swarm-services';
import type { SwarmStacksService } from './services/swarm/swarm-stacks';
import { createTemplates } from './services/templates';
import type { TemplatesService } from './services/templates/templates';
import { createTerminals } from './services/terminal';
import type { TerminalService } from './services/terminal/terminal';
import type { TerminalSessions } from './services/terminal/terminal-sessions';
import { createStreams } from './services/streams';
import type { StreamRegistry } from './services/streams/registry';
import { createVariables } from './services/variables';
import type { VariablesService } from './services/variables/variables';
import { createVolumes, type HelperContainers } from './services/volumes';
import type { VolumesService } from './services/volumes/volumes';
import { readBerthVersion } from './version';
import { createRegistries } from './services/registries';
import { SYSTEM_ACTOR } from './services/policy/policy';
import { createBackups, type BackupsService, type DestinationsService } from './services/backups';
import type { RegistriesService } from './services/registries/registries';
import { createPolicies, createPolicyGate, type PolicyGate } from './services/policy';
import type { PolicyService } from './services/policy/policy';

export interface AppDeps {
  db?: Db;
  docker?: Engine;
  /** Skip detection (tests that do not need compose); a promise stands for a detection still running. */
  compose?: ComposeCli | null | Promise<ComposeCli | null>;
  /** Where the log goes instead of stdout (tests read it for secrets). */
  logStream?: { write(line: string): void };
}

/**
 * The engine-backed services of one environment (an engine plus its compose folder and CLI
 * settings): built once per environment by buildScope, reached by an environment route's handler
 * as `req.scope` (lib/route.ts).
 */
export interface EngineScope {
  /** The environment's id (`local` for the engine Berth was started with). */
  id: string;
  /** The environment's context: its engine, engine status and compose settings; the rest is shared. */
  ctx: AppContext;
  apps: AppsService;
  appUpdates: AppUpdateService;
  /** Changes that keep an app's container: rename, limits, networks, commit. */
  appChanges: AppChangesService;
  /** The files inside an app's container. */
  appFiles: AppFilesService;
  /** Why an app stopped, with the events, stats history and audit kept around it. */
  diagnosis: AppDiagnosisService;
  appStreams: AppStreams;
  appLogs: AppLogsService;
  projectLogs: ProjectLogsService;
  /** The environment's engine event subscription and stats hub (one engine stream per running container). */
  events: EngineEvents;
  hub: StatsHub;
  /** The environment's kept engine events, with their live stream. */
  eventHistory: EventHistory;
  /** Every running app's kept samples (and each one's newest). */
  history: StatsHistory;
  host: HostService;
  projects: ProjectsService;
  projectActions: ProjectActionsService;
  projectPlan: ProjectPlanService;
  projectEnv: ProjectEnvService;
  /** Every deploy of a project, recorded; `record`/`recordNow` for deploys made outside projectActions.run. */
  projectRevisions: ProjectRevisions;
  /** Returns a project to a recorded revision, health-gated. */
  projectRollback: ProjectRollback;
  images: ImagesService;
  /** Build, tag, push, export and load images. */
  imageTransfer: ImageTransferService;
  volumes: VolumesService;
  /** Short-lived containers with one volume mounted (volume files, backups). */
  helpers: HelperContainers;
  /** The files inside a volume (through a helper). */
  volumeFiles: VolumeFilesService;
  networks: NetworksService;
  prune: PruneService;
  deploy: DeployService;
  /** One action on many apps, projects, images, volumes or networks (through the single-item services above). */
  batch: BatchService;
  /** Scheduled updates with a health gate (started by the routes once the server is ready). */
  autoUpdate: AutoUpdateService;
  /** Swarm management (the engine must be a swarm manager; else NotInSwarmError). */
  swarm: {
    cluster: SwarmClusterService;
    services: SwarmServicesService;
    stacks: SwarmStacksService;
    configs: SwarmObjectsService;
    secrets: SwarmObjectsService;
  };
  terminal: TerminalService;
  /** What non-admins may put into containers here: the one judge every container-making path asks. */
  policy: PolicyGate;
  close(): Promise<void>;
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
  const close = async () => {
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
    const shared: ScopeShared = { variables, notifications, audit, historyRepo, terminals, regexPool, policies, revs };
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

    const git = createGit(ctx, signingKey, {
      scope: (id) => {
        const scope = environments.get(id);
        return { ...scope, composeDir: scope.ctx.config.composeDir };
      },
      audit: (r) => audit.record(r),
      onFailed: (id, f) => composeFailureNotifier(notifications, id)(f),
    });
    const { backups, destinations: backupDestinations } = createBackups(ctx, signingKey, notifications, (id) => {
      const scope = environments.get(id);
      return { docker: scope.ctx.docker, helpers: scope.helpers, actor: SYSTEM_ACTOR };
    });
    backups.start();
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
    return { ctx, services, close };
  } catch (err) {
    await close();
    throw err;
  }
}

/**
 * Builds one environment's engine-backed services over `envCtx` (its engine, engine status and
 * compose settings). Everything else (database, log, the compose CLI found at start) is shared.
 */
/** What every environment's services share: template variables, notifications, the audit log, the stats history store, the web terminals. */
export interface ScopeShared {
  variables: VariablesService;
  notifications: NotificationService;
  audit: AuditService;
  historyRepo: StatsHistoryRepo;
  terminals: ReturnType<typeof createTerminals>;
  /** The regex workers of every log search (one small pool for the server). */
  regexPool: RegexPool;
  policies: PolicyService;
  /** Recorded deploys of projects and apps (their .env files and specs sealed). */
  revs: RevisionStore;
}

export function buildScope(
  id: string,
  envCtx: AppContext,
  { variables, notifications, audit, historyRepo, terminals, regexPool, policies, revs }: ScopeShared,
): EngineScope {
  const policy = createPolicyGate(policies, id, envCtx);
  const { runtime, apps, appUpdates, appChanges, appFiles, appStreams } = createApps(envCtx, historyRepo, id, policy);
  const { projectRollback, ...projectSet } = createProjects(envCtx, {
    // Host paths are only Berth's own to check on the engine it runs beside.
    checkBinds: id === LOCAL_ENVIRONMENT,
    onFailed: composeFailureNotifier(notifications, id),
    policy,
    environment: id,
    revisions: revs,
  });
  const { projects, projectActions, projectPlan, projectEnv, projectRevisions } = projectSet;
  const autoUpdate = createAutoUpdate(
    envCtx,
    id,
    { apps, appUpdates, projects, projectRevisions },
    { notify: (n) => notifications.notify(n), audit: (r) => audit.record(r) },
  );
  const eventHistory = createEventHistory(envCtx, id, runtime.events);
  const diagnosis = new AppDiagnosisService(envCtx.docker, apps, {
    events: (q) => eventHistory.list(q),
    memory: (app, range) => runtime.history.query(app, range),
    audit: (q) => audit.list(q),
  });
  const stopWatching = notifications.watch(
    id,
    eventHistory,
    envCtx.engine,
    async (app) => (await diagnosis.get(app)).oneLine,
  );
  const host = createHost(envCtx, id, runtime.events);
  const { volumes, helpers, volumeFiles } = createVolumes(envCtx, policy, id === LOCAL_ENVIRONMENT);
  const single = {
    apps,
    appUpdates,
    projects,
    projectActions,
    projectPlan,
    projectEnv,
    projectRevisions,
    projectRollback,
    images: createImages(envCtx),
    volumes,
    networks: createNetworks(envCtx.docker),
  };
  return {
    id,
    ctx: envCtx,
    ...single,
    appStreams,
    appChanges,
    appFiles,
    diagnosis,
    helpers,
    volumeFiles,
    history: runtime.history,
    host,
    ...createLogs(envCtx, runtime.events, projects, regexPool),
    events: runtime.events,
    hub: runtime.hub,
    eventHistory,
    imageTransfer: createImageTransfer(envCtx, policy),
    prune: createPrune(envCtx.docker),
    deploy: createDeploy(envCtx, variables, policy, { environment: id, store: revs }),
    batch: createBatch({ ...single, log: envCtx.log }),
    autoUpdate,
    swarm: createSwarm(envCtx, id, policy),
    terminal: terminals.forEnvironment(envCtx),
    policy,
    close: async () => {
      await autoUpdate.close();
      await projects.shutdown();
      stopWatching();
      host.close();
      eventHistory.close();
      runtime.close();
    },
  };
}
