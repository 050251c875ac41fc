// One environment's engine-backed services (its scope), built by buildScope; app-services.ts builds the rest.
import { LOCAL_ENVIRONMENT } from '@berth/contract';
import type { AppContext } from './context';
import { StatsHistoryRepo } from './db/stats-history-repo';
import type { EngineEvents } from './docker/events';
import type { StatsHub } from './docker/stats-hub';
import { createApps, onThisHost } from './services/apps';
import type { AppsService } from './services/apps/apps';
import type { AppStreams } from './services/apps/apps-live';
import { createLogs } from './services/logs';
import { HeldLogs, LogArchiver, type LogArchiveStore } from './services/log-archive';
import type { AppLogsService } from './services/logs/app-logs';
import { RegexPool } from './services/logs/log-search';
import type { ProjectLogsService } from './services/logs/project-logs';
import { createHost } from './services/host';
import type { HostService } from './services/host/host';
import type { StatsHistory } from './services/stats/stats-history';
import type { AppUpdateService } from './services/apps/apps-update';
import type { AppChangesService } from './services/apps/app-changes';
import type { AppFilesService } from './services/files/app-files';
import { AppDiagnosisService } from './services/apps/why-stopped';
import type { VolumeFilesService } from './services/files/volume-files';
import { createAutoHeal, type AutoHealService } from './services/auto-heal';
import { createAutoUpdate } from './services/auto-update';
import type { AutoUpdateService } from './services/auto-update/auto-update';
import { createBatch } from './services/batch';
import type { BatchService } from './services/batch/batch';
import type { AuditService } from './services/audit/audit';
import { createDeploy } from './services/deploy';
import { AppRevisions } from './services/revisions/app-revisions';
import type { DeployService } from './services/deploy/deploy';
import { createEventHistory } from './services/events';
import type { EventHistory } from './services/events/event-history';
import { composeFailureNotifier, createThresholdWatch, type NotificationService } from './services/notifications';
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
import { createSwarm } from './services/swarm';
import type { SwarmClusterService } from './services/swarm/swarm';
import type { SwarmObjectsService } from './services/swarm/swarm-objects';
import type { SwarmServicesService } from './services/swarm/swarm-services';
import type { SwarmStacksService } from './services/swarm/swarm-stacks';
import type { GitScopeParts, GitSnapshots } from './services/git';
import { createTerminals } from './services/terminal';
import type { TerminalService } from './services/terminal/terminal';
import type { VariablesService } from './services/variables/variables';
import { createVolumes, type HelperContainers } from './services/volumes';
import type { VolumesService } from './services/volumes/volumes';
import { createPolicyGate, type PolicyGate } from './services/policy';
import type { PolicyService } from './services/policy/policy';

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
  /** The kept last lines of this environment's earlier containers. */
  logArchive: LogArchiver;
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
  /** Restarts containers that stay unhealthy (driven by the engine's health events). */
  autoHeal: AutoHealService;
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
  /** Where every environment keeps the last lines of its earlier containers. */
  logArchives: LogArchiveStore;
  /** Told of a project deleted or a stack removed here (its git source is forgotten). */
  onRemoved: (environment: string, kind: 'project' | 'stack', name: string) => void;
  /** Throwaway copies of one commit of a repository (an image build from git), with the stored git credentials. */
  gitSnapshots: GitSnapshots;
}

export function buildScope(
  id: string,
  envCtx: AppContext,
  {
    variables,
    notifications,
    audit,
    historyRepo,
    terminals,
    regexPool,
    policies,
    revs,
    logArchives,
    onRemoved,
    gitSnapshots,
  }: ScopeShared,
): EngineScope {
  const policy = createPolicyGate(policies, id);
  const appRevisions = new AppRevisions(envCtx, id, revs, policy);
  const { runtime, apps, appUpdates, appChanges, appFiles, appStreams } = createApps(
    envCtx,
    historyRepo,
    id,
    policy,
    appRevisions,
  );
  // Log files are held open only where they are: on the engine's own host.
  const heldLogs = onThisHost(id, envCtx) ? new HeldLogs(envCtx.docker, envCtx.log) : null;
  const logArchive = new LogArchiver(envCtx, id, logArchives, regexPool, heldLogs);
  const stopArchiving = logArchive.watch(runtime.events);
  const { projectRollback, ...projectSet } = createProjects(envCtx, {
    // Host paths are only Berth's own to check on the engine it runs beside.
    checkBinds: id === LOCAL_ENVIRONMENT,
    onFailed: composeFailureNotifier(notifications, id),
    policy,
    environment: id,
    revisions: revs,
    keepLogs: (project, service) => logArchive.captureProject(project, service),
    onDeleted: (name) => onRemoved(id, 'project', name),
  });
  const { projects, projectActions, projectPlan, projectEnv, projectRevisions } = projectSet;
  const autoUpdate = createAutoUpdate(
    envCtx,
    id,
    { apps, appUpdates, projects, projectRevisions },
    { notify: (n) => notifications.notify(n), audit: (r) => audit.record(r) },
  );
  const eventHistory = createEventHistory(envCtx, id, runtime.events);
  const autoHeal = createAutoHeal(envCtx, id, eventHistory, {
    notify: (n) => notifications.notify(n),
    audit: (r) => audit.record(r),
  });
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
  const thresholds = createThresholdWatch(envCtx, id, notifications, {
    history: runtime.history,
    host,
    local: onThisHost(id, envCtx),
  });
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
    logArchive,
    events: runtime.events,
    hub: runtime.hub,
    eventHistory,
    imageTransfer: createImageTransfer(envCtx, policy, gitSnapshots),
    prune: createPrune(envCtx.docker),
    deploy: createDeploy(envCtx, variables, policy, appRevisions),
    batch: createBatch({ ...single, log: envCtx.log }),
    autoUpdate,
    autoHeal,
    swarm: createSwarm(envCtx, id, policy, (name) => onRemoved(id, 'stack', name)),
    terminal: terminals.forEnvironment(envCtx),
    policy,
    close: async () => {
      await autoUpdate.close();
      await projects.shutdown();
      stopWatching();
      stopArchiving();
      autoHeal.close();
      thresholds.close();
      host.close();
      eventHistory.close();
      runtime.close();
    },
  };
}

/** What the git sources need of one environment (its projects and stacks). */
export const gitScopeParts = (scope: EngineScope): GitScopeParts => ({
  id: scope.id,
  composeDir: scope.ctx.config.composeDir,
  projects: scope.projects,
  projectActions: scope.projectActions,
  projectPlan: scope.projectPlan,
  stacks: scope.swarm.stacks,
});
