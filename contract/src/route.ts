import { z } from 'zod';

/** Who may do what, lowest first: each role may do everything the roles before it may. */
export const ROLES = ['viewer', 'operator', 'admin'] as const;
export type Role = (typeof ROLES)[number];
/** The lowest role that may call a route. */
export type RouteRole = Role;

/** Whether a user with role `have` may call a route that needs `need`. */
export function roleAllows(have: Role, need: Role): boolean {
  return ROLES.indexOf(have) >= ROLES.indexOf(need);
}

/** What stands for an environment value the reader may not see (the .env editor's mask too). */
export const ENV_VALUE_MASK = '********';

/**
 * Whether a role reads environment values (containers, images, compose and stack files): operators
 * and admins do; a viewer reads the names with each value replaced by ENV_VALUE_MASK.
 */
export function seesEnvValues(role: Role): boolean {
  return roleAllows(role, 'operator');
}

/**
 * Who may call a route: `open` routes skip the auth check; every other route names the lowest
 * role that may call it (the auth hook refuses a route without one: deny by default).
 */
type RouteAccess = { open: true; role?: undefined } | { open?: false; role: Role };

/**
 * Where a route acts. `environment`: on one engine (its apps, projects, resources, swarm,
 * events, host); the server serves it under `/api/environments/{env}/…` for every environment and
 * at its own path for `local`. `global`: on Berth itself (users, settings, templates, the
 * environments' list...), at its own path only.
 */
export const ROUTE_SCOPES = ['environment', 'global'] as const;
export type RouteScope = (typeof ROUTE_SCOPES)[number];

/** The API reference's groups, one per domain: each route names one. */
export const API_TAGS = {
  apps: 'Containers: list, inspect, actions, deploy, update, stats',
  logs: 'Log search and downloads of apps and projects',
  projects: 'Compose projects: files, actions, activity',
  git: 'Projects from git repositories: credentials, sync, webhooks',
  images: 'Images of an environment',
  volumes: 'Volumes of an environment',
  backups: 'Backups of volumes: destinations, jobs, archives, restores and drills',
  networks: 'Networks of an environment',
  prune: 'Removing unused engine objects',
  swarm: 'Swarm cluster, services, stacks, configs and secrets',
  events: 'Engine events, kept and live',
  host: 'The host of an environment, and metrics',
  terminal: 'Shells in running containers',
  'auto-update': 'Scheduled app and project updates',
  templates: 'Template catalogues',
  variables: 'Template variables',
  settings: 'Berth settings, export and import',
  environments: 'Engines Berth manages',
  registries: 'Registry credentials and browsing',
  notifications: 'Notification channels and rules',
  audit: 'The audit log',
  auth: 'Sign-in, tokens, API keys, two-factor',
  users: 'User accounts and roles',
  health: 'Liveness and engine status',
} as const;
export type ApiTag = keyof typeof API_TAGS;

/** One endpoint of Berth's public API: the server registers it, the web app calls it. */
export type RouteDef = RouteAccess & {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** The spec's path (for an environment route: the path that acts on `local`). */
  path: string;
  /** Required: where the route acts (see RouteScope). */
  scope: RouteScope;
  /** Its group in the API reference. */
  tag: ApiTag;
  summary: string;
  /**
   * Other methods the server also accepts at this path. The spec documents some
   * state-changing calls as GET; they are accepted as GET and POST, each with the CSRF check.
   */
  alsoMethods?: readonly ('GET' | 'POST' | 'DELETE')[];
  /** Recorded in the audit log though it is a plain GET (the spec's sign-out calls). */
  audited?: boolean;
  /** The answer is `{results: [{name, status}…]}`, one per item: the audit log records each item. */
  batch?: boolean;
  params?: z.ZodType;
  querystring?: z.ZodType;
  body?: z.ZodType;
  response: z.ZodType;
};

export function defineRoute<const T extends RouteDef>(def: T): T {
  return def;
}

/** A route that acts on one environment. */
export type EnvironmentRouteDef = RouteDef & { scope: 'environment' };

export type RouteResponse<T extends RouteDef> = z.output<T['response']>;

/** Fills `{name}` placeholders of a contract path; each value is URL-encoded. */
export function fillPath(path: string, params: Record<string, string | number> = {}): string {
  return path.replace(/\{(\w+)\}/g, (_, key: string) => {
    const value = params[key];
    if (value === undefined) throw new Error(`missing path parameter ${key}`);
    return encodeURIComponent(String(value));
  });
}

/** An environment's id: a slug. `local` is the engine Berth was started with. */
export const EnvironmentId = z
  .string()
  .regex(
    /^[a-z0-9][a-z0-9-]{0,62}$/,
    'An environment id is 1-63 lowercase letters, digits or dashes, starting with a letter or digit',
  );
export const LOCAL_ENVIRONMENT = 'local';

/** The contract path of an environment route under `/api/environments/{env}` (placeholder kept). */
export const scopedContractPath = (path: string): string => `/api/environments/{env}${path.slice('/api'.length)}`;

/** A concrete URL of an environment route for `env` (the spec's own path for `local`). */
export function environmentPath(path: string, env: string): string {
  if (env === LOCAL_ENVIRONMENT) return path;
  return `/api/environments/${encodeURIComponent(env)}${path.slice('/api'.length)}`;
}

/** A route's params schema with the environment id added, for its scoped copy. */
export function withEnvironmentParam(params: z.ZodType | undefined): z.ZodType {
  const env = z.object({ env: EnvironmentId });
  if (!params) return env;
  if (params instanceof z.ZodObject) return params.extend(env.shape);
  return z.intersection(params, env);
}
