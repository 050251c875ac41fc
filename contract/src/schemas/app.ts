import { z } from 'zod';
import { defineRoute } from '../route';
import { BatchItemResult, BatchNames } from './batch';
import { CONTAINER_NAME } from './deploy';
import { LogRangeQuery } from './logs';
import { StatsHistory, StatsHistoryQuery } from './stats';
import { DashboardStatsQuery } from './stats-tick';

/** What app actions accept; anything else is a 400 naming these. */
export const APP_ACTIONS = ['start', 'stop', 'restart', 'kill', 'remove', 'pause', 'unpause'] as const;
export type AppAction = (typeof APP_ACTIONS)[number];

export const PortBinding = z.object({ HostIp: z.string(), HostPort: z.string() });
/** `{"80/tcp": [{HostIp, HostPort}], "443/tcp": null}`: null = exposed but not published. */
export const PortMap = z.record(z.string(), z.array(PortBinding).nullable());
export type PortMap = z.infer<typeof PortMap>;

const NetworkEndpoint = z.looseObject({
  NetworkID: z.string().nullish(),
  IPAddress: z.string().nullish(),
  Gateway: z.string().nullish(),
});
const Mount = z.looseObject({
  Type: z.string().nullish(),
  Name: z.string().nullish(),
  Source: z.string().nullish(),
  Destination: z.string(),
});

/** A container's health as `docker ps` shows it; `none` without a HEALTHCHECK or while not running. */
export const HEALTH_STATUSES = ['starting', 'healthy', 'unhealthy', 'none'] as const;
export const HealthStatus = z.enum(HEALTH_STATUSES);
export type HealthStatus = z.infer<typeof HealthStatus>;

/** One probe of the healthcheck (the engine keeps the last five). */
export const HealthProbe = z.looseObject({
  Start: z.string(),
  End: z.string().nullish(),
  ExitCode: z.number(),
  /** What the probe printed (the engine keeps its first 4 KiB). */
  Output: z.string().nullish(),
});
export type HealthProbe = z.infer<typeof HealthProbe>;

/** The healthcheck a container runs (its own or its image's); durations in nanoseconds as the engine gives them. */
export const Healthcheck = z.looseObject({
  Test: z.array(z.string()).nullish(),
  Interval: z.number().nullish(),
  Timeout: z.number().nullish(),
  StartPeriod: z.number().nullish(),
  Retries: z.number().nullish(),
});
export type Healthcheck = z.infer<typeof Healthcheck>;

/**
 * A container as the API shows it: the engine's inspect shape (list entries carry the subset one
 * list call gives) plus `name` (no leading slash), `short_id` (10 characters), `ports` and
 * `isUpdatable` (from the last update check; false when never checked).
 */
export const App = z.looseObject({
  Id: z.string(),
  /** The engine's name, with its leading slash. */
  Name: z.string(),
  Created: z.string(),
  /** The image ID the container runs. */
  Image: z.string().nullish(),
  State: z.looseObject({
    Status: z.string(),
    Running: z.boolean().optional(),
    /** The last exit code (lists read it from the engine's status text, as `docker ps` shows it). */
    ExitCode: z.number().nullish(),
    /** Killed for running out of memory (details only: the engine's list does not say). */
    OOMKilled: z.boolean().nullish(),
    /** The engine's health record with its last probes (details only). */
    Health: z
      .looseObject({ Status: z.string(), FailingStreak: z.number().nullish(), Log: z.array(HealthProbe).nullish() })
      .nullish(),
  }),
  Config: z.looseObject({
    /** The reference the container was created from, e.g. `nginx:latest`. */
    Image: z.string(),
    Labels: z.record(z.string(), z.string()),
    /** NAME=value strings (detail only). */
    Env: z.array(z.string()).nullish(),
    /** The healthcheck (details only). */
    Healthcheck: Healthcheck.nullish(),
  }),
  HostConfig: z.looseObject({}).optional(),
  NetworkSettings: z.looseObject({ Networks: z.record(z.string(), NetworkEndpoint).nullish() }).optional(),
  Mounts: z.array(Mount).nullish(),
  Args: z.array(z.string()).nullish(),
  name: z.string(),
  short_id: z.string(),
  ports: PortMap,
  isUpdatable: z.boolean(),
  /**
   * The newest tag of the image's registry that is a newer version of its tag (`1.5.0` for
   * `1.4.2`, same suffix), from the tag list last read (an update check reads it); null when there
   * is none, the tag is no version or the list was not read yet.
   */
  newerVersion: z.string().nullish(),
  /** Health of a running app (lists read it from the engine's status text, as `docker ps` shows it). */
  health: HealthStatus,
});
export type App = z.infer<typeof App>;

export const AppList = z.array(App);

export const Processes = z.object({ Titles: z.array(z.string()), Processes: z.array(z.array(z.string())) });
export type Processes = z.infer<typeof Processes>;

/** Result of comparing the app's image with its registry (`isUpdatable` is always a boolean). */
export const AppUpdateCheck = App.extend({
  /** Why the registry could not be compared (built locally, unreachable…); null when it was. */
  reason: z.string().nullable(),
  update: z.object({
    /** The reference that was checked (Config.Image). */
    image: z.string(),
    /** Digest the registry has for that reference now; null when it could not be asked. */
    remoteDigest: z.string().nullable(),
    /** Digests of the image the container runs. */
    localDigests: z.array(z.string()),
    /** Tags newer than the image's version tag (same prefix, suffix and precision), newest first. */
    newerTags: z.array(z.string()),
    /** Why newer tags could not be looked for (the tag is no version, the registry refused…); null when they were. */
    tagsReason: z.string().nullable(),
    checkedAt: z.string(),
  }),
});
export type AppUpdateCheck = z.infer<typeof AppUpdateCheck>;

export const AppName = z
  .string()
  .regex(CONTAINER_NAME, 'An app name is letters, digits and _ . - (it starts with a letter or digit).')
  .max(255, 'An app name is at most 255 characters.');
export const AppNameParams = z.object({ name: AppName });
export const AppActionParams = z.object({
  name: AppName,
  action: z.enum(APP_ACTIONS, { error: () => `Unknown action; use one of: ${APP_ACTIONS.join(', ')}.` }),
});

/** What a batch of apps accepts: every single action, and update. */
export const APP_BATCH_ACTIONS = [...APP_ACTIONS, 'update'] as const;
export type AppBatchAction = (typeof APP_BATCH_ACTIONS)[number];
export const AppBatchBody = z.strictObject({
  action: z.enum(APP_BATCH_ACTIONS, { error: () => `Unknown action; use one of: ${APP_BATCH_ACTIONS.join(', ')}.` }),
  names: BatchNames,
});
export const AppBatchResult = z.object({ results: z.array(BatchItemResult), apps: AppList });
export type AppBatchResult = z.infer<typeof AppBatchResult>;

/** What an exit code usually means (`oom` when the kernel killed it for memory). */
export const EXIT_KINDS = [
  'running',
  'done',
  'error',
  'command',
  'killed',
  'oom',
  'segfault',
  'terminated',
  'signal',
] as const;
export const ExitKind = z.enum(EXIT_KINDS);
export type ExitKind = z.infer<typeof ExitKind>;

/** Why an app stopped: its exit code read, restarts, and the log lines just before the stop. */
export const AppDiagnosis = z.object({
  name: z.string(),
  status: z.string(),
  running: z.boolean(),
  /** Null while the app never exited. */
  exitCode: z.number().nullable(),
  kind: ExitKind,
  /** One sentence, e.g. "Error: the main process exited with code 3." */
  summary: z.string(),
  oomKilled: z.boolean(),
  /** Restarts by the engine's restart policy since the container was (re)started by hand. */
  restartCount: z.number(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  /** The engine's own error (a start that failed), else null. */
  error: z.string().nullable(),
  /** The last 50 log lines before the stop (or of the log, while it never stopped), oldest first. */
  lastLines: z.array(z.object({ ts: z.string().nullable(), text: z.string() })),
  /**
   * Who ended it, for a kill or a stop: the kernel (oom), a user through Berth (its audit log), the
   * engine's API or CLI (a kill or stop event Berth did not make), or the host (a signal with no
   * engine event); null for an exit of its own or while it runs.
   */
  killedBy: z.enum(['oom', 'berth', 'engine', 'host']).nullable(),
  /** One sentence on who ended it (the user through Berth, when known). */
  killedByText: z.string().nullable(),
  /** Memory in use (the highest per step) over the minutes before the stop, from the stats history; empty when none was kept. */
  memory: z.object({
    limit: z.number().nullable(),
    samples: z.array(z.object({ time: z.string(), bytes: z.number() })),
    /** Seconds before the stop it stayed within 5 % of its limit. */
    nearLimitSeconds: z.number(),
  }),
  /** Deaths of this container in the hour before now (from the kept engine events). */
  restartsLastHour: z.number(),
  /** Its kept engine events from a minute before the stop to a minute after, oldest first. */
  events: z.array(z.object({ time: z.string(), action: z.string(), attributes: z.record(z.string(), z.string()) })),
  /** The whole sentence a notification carries. */
  oneLine: z.string(),
});
export type AppDiagnosis = z.infer<typeof AppDiagnosis>;

/** Server-sent events: see StreamEvent in ./stats for the event names and their data. */
const EventStream = z.string().describe('text/event-stream');
/** A zip file (application/zip). */
const ZipFile = z.unknown().describe('application/zip');

export const appsApi = {
  list: defineRoute({
    method: 'GET',
    role: 'viewer',
    path: '/api/apps/',
    scope: 'environment',
    tag: 'apps',
    summary: 'Every container, running or not (one engine call)',
    response: AppList,
  }),
  dashboardStats: defineRoute({
    method: 'GET',
    role: 'viewer',
    path: '/api/apps/stats',
    scope: 'environment',
    tag: 'apps',
    summary:
      "SSE: 'update' = a StatsSample of each running app, 'remove' = {name} when one stops; follows apps starting and stopping. " +
      "With format=tick: one 'tick' event a second at most = a StatsTick frame of every app that changed (the first full, then deltas), compressed when the client accepts it",
    querystring: DashboardStatsQuery,
    response: EventStream,
  }),
  get: defineRoute({
    method: 'GET',
    role: 'viewer',
    path: '/api/apps/{name}',
    scope: 'environment',
    tag: 'apps',
    summary: 'One container (inspect shape plus name, ports, short_id)',
    params: AppNameParams,
    response: App,
  }),
  processes: defineRoute({
    method: 'GET',
    role: 'viewer',
    path: '/api/apps/{name}/processes',
    scope: 'environment',
    tag: 'apps',
    summary: 'Processes of a running app (409 when it is not running)',
    params: AppNameParams,
    response: Processes,
  }),
  action: defineRoute({
    method: 'POST',
    role: 'operator',
    path: '/api/apps/actions/{name}/{action}',
    scope: 'environment',
    tag: 'apps',
    alsoMethods: ['GET'],
    summary: 'start, stop, restart, kill, remove (forced; volumes kept), pause or unpause; returns the app list',
    params: AppActionParams,
    response: AppList,
  }),
  batch: defineRoute({
    method: 'POST',
    path: '/api/apps/actions/batch',
    scope: 'environment',
    tag: 'apps',
    batch: true,
    summary:
      'One action (or update) on many apps, a few at a time; one result per name (a failure never stops the others) and the app list',
    role: 'operator',
    body: AppBatchBody,
    response: AppBatchResult,
  }),
  support: defineRoute({
    method: 'GET',
    role: 'operator',
    path: '/api/apps/{name}/support',
    scope: 'environment',
    tag: 'apps',
    summary: 'Support bundle (zip): the log (last 10 MiB) and the configuration with environment values redacted',
    params: AppNameParams,
    response: ZipFile,
  }),
  diagnosis: defineRoute({
    method: 'GET',
    role: 'viewer',
    path: '/api/apps/{name}/diagnosis',
    scope: 'environment',
    tag: 'apps',
    summary:
      'Why the app stopped: exit code and its meaning, OOM kill, restarts and the last 50 log lines before the stop',
    params: AppNameParams,
    response: AppDiagnosis,
  }),
  checkUpdate: defineRoute({
    method: 'GET',
    role: 'viewer',
    path: '/api/apps/{name}/updates',
    scope: 'environment',
    tag: 'apps',
    summary: "Compare the app's image with the registry's current digest",
    params: AppNameParams,
    response: AppUpdateCheck,
  }),
  update: defineRoute({
    method: 'POST',
    role: 'operator',
    path: '/api/apps/{name}/update',
    scope: 'environment',
    tag: 'apps',
    alsoMethods: ['GET'],
    summary:
      'Pull the image and recreate the app with the same configuration (rolled back on failure); returns the app list',
    params: AppNameParams,
    response: AppList,
  }),
  logs: defineRoute({
    method: 'GET',
    role: 'viewer',
    path: '/api/apps/{name}/logs',
    scope: 'environment',
    tag: 'apps',
    summary:
      "SSE: 'update' = one log line (the last 500 first, then new ones); 'status' = StreamStatus. Optional: tail, since, until, timestamps, " +
      "format=json ('lines' = LogEntry[] batches); an until in the past ends with an 'end' event",
    params: AppNameParams,
    querystring: LogRangeQuery,
    response: EventStream,
  }),
  stats: defineRoute({
    method: 'GET',
    role: 'viewer',
    path: '/api/apps/{name}/stats',
    scope: 'environment',
    tag: 'apps',
    summary: "SSE: 'update' = a StatsSample about once a second while running; 'status' = StreamStatus",
    params: AppNameParams,
    response: EventStream,
  }),
  statsHistory: defineRoute({
    method: 'GET',
    path: '/api/apps/{name}/stats/history',
    scope: 'environment',
    tag: 'apps',
    role: 'viewer',
    summary:
      'CPU and memory history (mean and max per step): range 10m (1 s steps), 1h (10 s), 24h (1 min) or 7d (10 min); kept across restarts',
    params: AppNameParams,
    querystring: StatsHistoryQuery,
    response: StatsHistory,
  }),
};
