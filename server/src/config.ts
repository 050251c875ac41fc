import path from 'node:path';
import { z } from 'zod';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', 'TRUE', 'FALSE', 'True', 'False'])
  .transform((v) => ['true', '1', 'yes'].includes(v.toLowerCase()));

const EnvSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  COMPOSE_DIR: z.string().min(1).optional(),
  DOCKER_HOST: z
    .string()
    .regex(/^(unix|tcp|http|https|npipe):\/\//, 'must look like unix:///path or tcp://host:port')
    .optional(),
  SECRET_KEY: z.string().min(32, 'must be at least 32 characters').optional(),
  ADMIN_EMAIL: z.email('must be an email address').default('admin@berth.local'),
  ADMIN_PASSWORD: z.string().min(8, 'must be at least 8 characters').optional(),
  DISABLE_AUTH: bool.default(false),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  ACCESS_TOKEN_MINUTES: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 60)
    .default(15),
  REFRESH_TOKEN_DAYS: z.coerce.number().int().min(1).max(365).default(30),
  TRUST_PROXY: z
    .string()
    .transform((v) => v.trim())
    .pipe(
      z.union([
        bool,
        z
          .string()
          .regex(/^\d{1,2}$/, 'must be true, false, a number of proxy hops, or proxy addresses/CIDRs')
          .transform(Number),
        z
          .string()
          .regex(
            /^[0-9a-fA-F.:/]+(\s*,\s*[0-9a-fA-F.:/]+)*$/,
            'must be true, false, a number of proxy hops, or a comma list of proxy addresses/CIDRs',
          )
          .transform((v) => v.split(',').map((a) => a.trim())),
      ]),
    )
    .default(false),
  /** Host names Berth answers to (DNS-rebinding guard); `*` allows any. Default: this machine's names and addresses. */
  ALLOWED_HOSTS: z
    .string()
    .transform((v) =>
      v
        .split(',')
        .map((h) => h.trim().toLowerCase())
        .filter(Boolean),
    )
    .optional(),
  WEB_DIST: z.string().optional(),
  /** The host's cgroup tree (the container image bind-mounts it read-only); live stats read it when readable. */
  CGROUP_ROOT: z.string().min(1).default('/sys/fs/cgroup'),
  /** Record every running app's stats for the history charts (it keeps a stats stream open per running app). */
  STATS_HISTORY: bool.default(true),
  /** Serve the app list from a cache kept exact by the engine's event stream (local socket engines only). */
  LIST_CACHE: bool.default(true),
  /** OpenID Connect sign-in: all of issuer, client id, secret and redirect URL, or none. */
  OIDC_ISSUER: z.url('must be a URL').optional(),
  OIDC_CLIENT_ID: z.string().min(1).optional(),
  OIDC_CLIENT_SECRET: z.string().min(1).optional(),
  OIDC_REDIRECT_URL: z.url('must be a URL ending in /api/auth/oidc/callback').optional(),
  OIDC_NAME: z.string().min(1).max(60).default('SSO'),
  /** The claim holding the user's groups, and the groups that map to admin and operator (others: viewer). */
  OIDC_GROUPS_CLAIM: z.string().min(1).default('groups'),
  OIDC_ADMIN_GROUP: z.string().min(1).optional(),
  OIDC_OPERATOR_GROUP: z.string().min(1).optional(),
  OIDC_ONLY: bool.default(false),
  /** Sign-on may link an existing account by verified email (a risk: see the README's Security section). */
  OIDC_LINK_BY_EMAIL: bool.default(false),
  ENGINE_TIMEOUT_SECONDS: z.coerce.number().min(0.1).max(3600).default(10),
  ENGINE_SLOW_TIMEOUT_SECONDS: z.coerce.number().min(0.1).max(7200).default(300),
  /** How long the compose CLI's `version` probe may take; past it the CLI is unknown and looked for again. */
  COMPOSE_PROBE_TIMEOUT_SECONDS: z.coerce.number().min(0.1).max(300).default(10),
  COMPOSE_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(3600).default(600),
  /** Git-backed projects: the longest one git fetch may run, and the most a working copy's history may hold. */
  GIT_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(3600).default(120),
  GIT_MAX_MB: z.coerce.number().int().min(1).max(100_000).default(100),
  TEMPLATE_FETCH_ALLOW_LOOPBACK: bool.default(false),
  TERMINAL_MAX_SESSIONS_PER_USER: z.coerce.number().int().min(1).max(1000).default(8),
  /** Live streams (event streams and terminals) one user may hold open, and all users together. */
  STREAMS_MAX_PER_USER: z.coerce.number().int().min(1).max(10_000).default(20),
  STREAMS_MAX_TOTAL: z.coerce.number().int().min(1).max(100_000).default(400),
  /** Fractions allowed (0.05 = 3 s) so a test can see the timeout fire. */
  TERMINAL_IDLE_MINUTES: z.coerce
    .number()
    .min(0.01)
    .max(7 * 24 * 60)
    .default(30),
  TEMPLATE_FETCH_TIMEOUT_SECONDS: z.coerce.number().min(0.5).max(120).default(15),
  EVENTS_RETENTION_DAYS: z.coerce.number().min(0.01).max(3650).default(7),
  EVENTS_MAX_ROWS: z.coerce.number().int().min(100).max(10_000_000).default(200_000),
  AUDIT_RETENTION_DAYS: z.coerce.number().min(1).max(36500).default(90),
  /** The shortest gap any auto-update schedule may have. */
  AUTO_UPDATE_MIN_INTERVAL_SECONDS: z.coerce.number().int().min(1).max(86_400).default(300),
  /** Auto-update runs kept: the newest this many, none older than AUTO_UPDATE_RUNS_DAYS. */
  AUTO_UPDATE_RUNS_KEPT: z.coerce.number().int().min(10).max(100_000).default(500),
  AUTO_UPDATE_RUNS_DAYS: z.coerce.number().min(1).max(3650).default(90),
  /** Revisions kept per compose project and per app (issue 34): the newest this many. */
  REVISIONS_KEPT: z.coerce.number().int().min(1).max(10_000).default(50),
  /** Last lines kept of a gone container (0: none; services/log-archive), at most KB each, for DAYS, MAX_MB in all. */
  LOG_ARCHIVE_LINES: z.coerce.number().int().min(0).max(1_000_000).default(2000),
  LOG_ARCHIVE_KB: z.coerce.number().int().min(1).max(1_048_576).default(1024),
  LOG_ARCHIVE_DAYS: z.coerce.number().min(0.01).max(3650).default(7),
  LOG_ARCHIVE_MAX_MB: z.coerce.number().min(1).max(1_000_000).default(512),
  AUDIT_MAX_ROWS: z.coerce.number().int().min(100).max(100_000_000).default(200_000),
  /** How often threshold rules (CPU, memory, disk, volume size) look at their readings. */
  THRESHOLD_CHECK_SECONDS: z.coerce.number().min(0.2).max(3600).default(30),
  /** Waits before each retry of a failed notification (the first try is at once). */
  NOTIFY_RETRY_SECONDS: z
    .string()
    .regex(/^\s*\d+(\.\d+)?(\s*,\s*\d+(\.\d+)?){0,9}\s*$/, 'must be a comma list of at most 10 numbers of seconds')
    .transform((v) => v.split(',').map((x) => Math.round(Number(x) * 1000)))
    .default([10_000, 60_000, 300_000]),
  /**
   * The image of the short-lived helper containers that read and write volumes (volume files,
   * backups): it needs `sh`, `sleep`, `rm` and `tar`. Unset: Berth's own image on the engine it
   * runs beside; another engine needs it set (busybox or alpine do).
   */
  HELPER_IMAGE: z.string().min(1).max(512).optional(),
  /** Set by the container runtime; names Berth's own container when it runs in one. */
  HOSTNAME: z.string().optional(),
  BERTH_CONTAINER_NAME: z
    .string()
    .regex(/^\/?[a-zA-Z0-9][a-zA-Z0-9_.-]*$/, 'must be a container name or ID')
    .optional(),
});

const DAY_MS = 24 * 3600 * 1000;

/** The engine when DOCKER_HOST is unset (dockerode's and the docker CLI's default). */
export const DEFAULT_DOCKER_HOST = 'unix:///var/run/docker.sock';
/**
 * What the compose CLI may see of Berth's environment: how to find itself and its plugins, the
 * registry credentials, and the engine's TLS files. Nothing of Berth's own configuration
 * (ADMIN_PASSWORD, SECRET_KEY, PORT, DATA_DIR...) reaches a compose file's `${...}`.
 */
const CLI_ENV_KEYS = ['PATH', 'HOME', 'DOCKER_CONFIG', 'DOCKER_TLS_VERIFY', 'DOCKER_CERT_PATH'] as const;

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  composeDir: string;
  dockerHost: string | undefined;
  secretKey: string | undefined;
  adminEmail: string;
  adminPassword: string | undefined;
  disableAuth: boolean;
  logLevel: z.infer<typeof EnvSchema>['LOG_LEVEL'];
  accessTokenSeconds: number;
  refreshTokenSeconds: number;
  /**
   * Which proxies' X-Forwarded-* headers are believed: false (none), a number of hops (`true`
   * means one), or proxy addresses/CIDRs. The client address is then the last untrusted hop,
   * never the left-most X-Forwarded-For value a client can write.
   */
  trustProxy: false | number | string[];
  /** Host names (lower case) Berth answers to; undefined = this machine's own names and addresses. */
  allowedHosts: string[] | undefined;
  webDist: string;
  /** The host's cgroup tree: live stats of the local engine's containers come from it when readable. */
  cgroupRoot: string;
  /** Record every running app's stats (history charts); off keeps stats streams open only while someone watches. */
  statsHistory: boolean;
  /** Serve the app list from the event-kept cache where the engine shares Berth's clock (off: every list asks the engine). */
  listCache: boolean;
  /** How long an engine read or quick call may take before it answers 504 engine_timeout. */
  engineTimeoutMs: number;
  /** The same for stops, removals, prunes and the start of a pull. */
  engineSlowTimeoutMs: number;
  composeTimeoutMs: number;
  gitTimeoutMs: number;
  gitMaxBytes: number;
  composeProbeTimeoutMs: number;
  templateFetchAllowLoopback: boolean;
  templateFetchTimeoutMs: number;
  /** Engine events are kept this long, and at most eventsMaxRows of them. */
  eventsRetentionMs: number;
  eventsMaxRows: number;
  auditRetentionMs: number;
  autoUpdateMinIntervalMs: number;
  /** Auto-update run history: at most this many runs per environment, none older than autoUpdateRunsMaxAgeMs. */
  autoUpdateRunsKept: number;
  /** Revisions kept per project and per app. */
  revisionsKept: number;
  keptLogs: { lines: number; kb: number; days: number; mb: number };
  autoUpdateRunsMaxAgeMs: number;
  /** The audit log keeps at most this many entries, dropping the oldest first. */
  auditMaxRows: number;
  notifyRetryDelaysMs: number[];
  thresholdCheckMs: number;
  /** Open terminal sessions one user may have at a time (across environments). */
  terminalMaxSessionsPerUser: number;
  /** Caps on open live streams (SSE and WebSockets): per user and in total. */
  streamsMaxPerUser: number;
  streamsMaxTotal: number;
  /** A terminal nobody typed into for this long is closed. */
  terminalIdleMs: number;
  /** Berth's own container (name or ID) for the self-update; else found by host name. */
  containerName: string | undefined;
  /** HELPER_IMAGE: the image of volume helper containers; undefined = Berth's own. */
  helperImage: string | undefined;
  /** OpenID Connect sign-in, or null when not configured. */
  oidc: OidcConfig | null;
  hostname: string | undefined;
  /**
   * The whole environment of compose CLI children: the allow-list above plus DOCKER_HOST, always
   * set (the default socket when Berth's is unset) so a project's .env cannot point compose at
   * another engine.
   */
  cliEnv: Readonly<Record<string, string>>;
}

export interface OidcConfig {
  issuer: string;
  clientId: string;
  clientSecret: string;
  redirectUrl: string;
  /** Shown on the button: "Sign in with …". */
  name: string;
  groupsClaim: string;
  adminGroup: string | undefined;
  operatorGroup: string | undefined;
  /** Password sign-in is off. */
  only: boolean;
  /**
   * OIDC_LINK_BY_EMAIL: a first sign-on may take over the existing account with the same verified
   * email (never one with TOTP on or whose email its owner typed in). Off: linking is done by the
   * signed-in owner (password and TOTP asked).
   */
  linkByEmail: boolean;
}

export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

/** The only reader of process.env. Parses every variable once and lists every bad one. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = EnvSchema.safeParse(present);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`));
  }
  const e = parsed.data;
  const dataDir = path.resolve(e.DATA_DIR);
  const oidc = oidcConfig(e);
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir,
    composeDir: path.resolve(e.COMPOSE_DIR ?? path.join(dataDir, 'compose')),
    dockerHost: e.DOCKER_HOST,
    secretKey: e.SECRET_KEY,
    adminEmail: e.ADMIN_EMAIL.toLowerCase(),
    adminPassword: e.ADMIN_PASSWORD,
    disableAuth: e.DISABLE_AUTH,
    logLevel: e.LOG_LEVEL,
    accessTokenSeconds: e.ACCESS_TOKEN_MINUTES * 60,
    refreshTokenSeconds: e.REFRESH_TOKEN_DAYS * 24 * 3600,
    trustProxy: e.TRUST_PROXY === true ? 1 : e.TRUST_PROXY,
    allowedHosts: e.ALLOWED_HOSTS,
    cgroupRoot: path.resolve(e.CGROUP_ROOT),
    statsHistory: e.STATS_HISTORY,
    listCache: e.LIST_CACHE,
    webDist: path.resolve(e.WEB_DIST ?? path.join(import.meta.dirname, '../../web/dist')),
    engineTimeoutMs: Math.round(e.ENGINE_TIMEOUT_SECONDS * 1000),
    engineSlowTimeoutMs: Math.round(e.ENGINE_SLOW_TIMEOUT_SECONDS * 1000),
    composeTimeoutMs: e.COMPOSE_TIMEOUT_SECONDS * 1000,
    gitTimeoutMs: e.GIT_TIMEOUT_SECONDS * 1000,
    gitMaxBytes: e.GIT_MAX_MB * 1024 * 1024,
    composeProbeTimeoutMs: Math.round(e.COMPOSE_PROBE_TIMEOUT_SECONDS * 1000),
    templateFetchAllowLoopback: e.TEMPLATE_FETCH_ALLOW_LOOPBACK,
    templateFetchTimeoutMs: Math.round(e.TEMPLATE_FETCH_TIMEOUT_SECONDS * 1000),
    eventsRetentionMs: Math.round(e.EVENTS_RETENTION_DAYS * DAY_MS),
    eventsMaxRows: e.EVENTS_MAX_ROWS,
    auditRetentionMs: Math.round(e.AUDIT_RETENTION_DAYS * DAY_MS),
    auditMaxRows: e.AUDIT_MAX_ROWS,
    autoUpdateMinIntervalMs: e.AUTO_UPDATE_MIN_INTERVAL_SECONDS * 1000,
    autoUpdateRunsKept: e.AUTO_UPDATE_RUNS_KEPT,
    revisionsKept: e.REVISIONS_KEPT,
    keptLogs: { lines: e.LOG_ARCHIVE_LINES, kb: e.LOG_ARCHIVE_KB, days: e.LOG_ARCHIVE_DAYS, mb: e.LOG_ARCHIVE_MAX_MB },
    autoUpdateRunsMaxAgeMs: Math.round(e.AUTO_UPDATE_RUNS_DAYS * DAY_MS),
    notifyRetryDelaysMs: e.NOTIFY_RETRY_SECONDS,
    thresholdCheckMs: Math.round(e.THRESHOLD_CHECK_SECONDS * 1000),
    terminalMaxSessionsPerUser: e.TERMINAL_MAX_SESSIONS_PER_USER,
    streamsMaxPerUser: e.STREAMS_MAX_PER_USER,
    streamsMaxTotal: e.STREAMS_MAX_TOTAL,
    terminalIdleMs: Math.round(e.TERMINAL_IDLE_MINUTES * 60_000),
    containerName: e.BERTH_CONTAINER_NAME?.replace(/^\//, ''),
    hostname: e.HOSTNAME,
    helperImage: e.HELPER_IMAGE,
    oidc,
    cliEnv: Object.freeze({
      ...Object.fromEntries(CLI_ENV_KEYS.flatMap((k) => (present[k] ? [[k, String(present[k])]] : []))),
      DOCKER_HOST: e.DOCKER_HOST ?? DEFAULT_DOCKER_HOST,
    }),
  };
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

function oidcConfig(e: z.infer<typeof EnvSchema>): OidcConfig | null {
  const given = [e.OIDC_ISSUER, e.OIDC_CLIENT_ID, e.OIDC_CLIENT_SECRET, e.OIDC_REDIRECT_URL];
  if (given.every((v) => v === undefined)) {
    if (e.OIDC_ONLY)
      throw new ConfigError(['OIDC_ONLY: needs OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET and OIDC_REDIRECT_URL']);
    return null;
  }
  if (!e.OIDC_ISSUER || !e.OIDC_CLIENT_ID || !e.OIDC_CLIENT_SECRET || !e.OIDC_REDIRECT_URL) {
    throw new ConfigError([
      'OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET and OIDC_REDIRECT_URL: set all four for OpenID Connect sign-in, or none',
    ]);
  }
  const issuer = new URL(e.OIDC_ISSUER);
  // Tokens travel between Berth and the provider: plain HTTP only on this machine.
  if (issuer.protocol !== 'https:' && !(issuer.protocol === 'http:' && LOOPBACK_HOSTS.has(issuer.hostname))) {
    throw new ConfigError(['OIDC_ISSUER: must be https:// (plain http only for a provider on this machine)']);
  }
  return {
    issuer: e.OIDC_ISSUER,
    clientId: e.OIDC_CLIENT_ID,
    clientSecret: e.OIDC_CLIENT_SECRET,
    redirectUrl: e.OIDC_REDIRECT_URL,
    name: e.OIDC_NAME,
    groupsClaim: e.OIDC_GROUPS_CLAIM,
    adminGroup: e.OIDC_ADMIN_GROUP,
    operatorGroup: e.OIDC_OPERATOR_GROUP,
    only: e.OIDC_ONLY,
    linkByEmail: e.OIDC_LINK_BY_EMAIL,
  };
}

/**
 * TRUST_PROXY as Fastify takes it. Hop counts become a function: Fastify ignores a bare number
 * (it fails closed), while "trust the first N hops" is what an operator with N proxies means.
 */
export function trustProxyOption(
  trust: Config['trustProxy'],
): false | string[] | ((addr: string, hop: number) => boolean) {
  return typeof trust === 'number' ? (_addr, hop) => hop < trust : trust;
}
