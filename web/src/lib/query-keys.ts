/**
 * Every query (and mutation) key of the web app, in one place: a feature never spells another
 * feature's key. Data of an environment route is keyed under its environment id first
 * (`[env, 'apps', 'list']`), so one engine's data never shows under another's name and switching
 * environments needs no cache clearing; data of a global route is keyed by its domain alone.
 * Streams (filled by server-sent events, never fetched) sit under keys of their own (`apps-live`,
 * `projects-live`, `host-live`), so invalidating server reads can never try to refetch one.
 */

type Env = string;

const inEnv = <const K extends readonly unknown[]>(env: Env, ...rest: K) => [env, ...rest] as const;

export const queryKeys = {
  /** Everything cached about one environment. */
  environment: (env: Env) => [env] as const,

  apps: {
    all: (env: Env) => inEnv(env, 'apps'),
    list: (env: Env) => inEnv(env, 'apps', 'list'),
    detail: (env: Env, name: string) => inEnv(env, 'apps', 'detail', name),
    processes: (env: Env, name: string) => inEnv(env, 'apps', 'processes', name),
    revisions: (env: Env, name: string) => inEnv(env, 'apps', 'detail', name, 'revisions'),
    /** The kept logs of the app's earlier containers (under `apps`: an edit or a removal refreshes them). */
    logArchives: (env: Env, name: string) => inEnv(env, 'apps', 'log-archives', name),
    /** Keyed by the last stop too: a new stop reads the diagnosis again. */
    diagnosis: (env: Env, name: string, finishedAt: string) => inEnv(env, 'apps', 'diagnosis', name, finishedAt),
    history: (env: Env, name: string, range: string) => inEnv(env, 'apps', 'history', name, range),
    /** Mutation keys: the busy texts find actions and updates under way by them. */
    action: (env: Env) => inEnv(env, 'apps', 'action'),
    update: (env: Env) => inEnv(env, 'apps', 'update'),
    batch: (env: Env) => inEnv(env, 'apps', 'batch'),
    checkUpdates: (env: Env) => inEnv(env, 'apps', 'check-updates'),
  },
  /** The files of an app or a volume (the file browser): folders listed, files read. */
  files: {
    all: (env: Env, kind: 'apps' | 'volumes', name: string) => inEnv(env, kind, 'files', name),
    dirs: (env: Env, kind: 'apps' | 'volumes', name: string) => inEnv(env, kind, 'files', name, 'dir'),
    dir: (env: Env, kind: 'apps' | 'volumes', name: string, path: string) =>
      inEnv(env, kind, 'files', name, 'dir', path),
    content: (env: Env, kind: 'apps' | 'volumes', name: string, path: string) =>
      inEnv(env, kind, 'files', name, 'content', path),
  },
  appsLive: {
    dashboard: (env: Env) => inEnv(env, 'apps-live', 'dashboard'),
    logs: (env: Env, name: string) => inEnv(env, 'apps-live', 'logs', name),
    stats: (env: Env, name: string) => inEnv(env, 'apps-live', 'stats', name),
  },
  host: {
    overview: (env: Env) => inEnv(env, 'host-live', 'overview'),
  },
  images: {
    all: (env: Env) => inEnv(env, 'images'),
    list: (env: Env) => inEnv(env, 'images', 'list'),
    detail: (env: Env, id: string) => inEnv(env, 'images', 'detail', id),
  },
  volumes: {
    all: (env: Env) => inEnv(env, 'volumes'),
    list: (env: Env) => inEnv(env, 'volumes', 'list'),
    detail: (env: Env, name: string) => inEnv(env, 'volumes', 'detail', name),
  },
  networks: {
    all: (env: Env) => inEnv(env, 'networks'),
    list: (env: Env) => inEnv(env, 'networks', 'list'),
    detail: (env: Env, id: string) => inEnv(env, 'networks', 'detail', id),
  },
  projects: {
    all: (env: Env) => inEnv(env, 'projects'),
    list: (env: Env) => inEnv(env, 'projects', 'list'),
    detail: (env: Env, name: string) => inEnv(env, 'projects', 'detail', name),
    plan: (env: Env, name: string) => inEnv(env, 'projects', 'detail', name, 'plan'),
    env: (env: Env, name: string) => inEnv(env, 'projects', 'detail', name, 'env'),
    revisions: (env: Env, name: string) => inEnv(env, 'projects', 'detail', name, 'revisions'),
    revisionDiff: (env: Env, name: string, a: number, b: number) =>
      inEnv(env, 'projects', 'detail', name, 'revisions', 'diff', a, b),
    /** A git-backed project's remote, commits and local edits (404 for a project not from git). */
    git: (env: Env, name: string) => inEnv(env, 'projects', 'detail', name, 'git'),
    /** Mutation key of compose actions (the busy texts find them by it). */
    action: (env: Env) => inEnv(env, 'projects', 'action'),
  },
  projectsLive: {
    output: (env: Env, name: string) => inEnv(env, 'projects-live', 'output', name),
  },
  events: {
    all: (env: Env) => inEnv(env, 'events'),
    list: (env: Env, filter: object, hours: number) => inEnv(env, 'events', filter, hours),
  },
  swarm: {
    all: (env: Env) => inEnv(env, 'swarm'),
    info: (env: Env) => inEnv(env, 'swarm', 'info'),
    nodes: (env: Env) => inEnv(env, 'swarm', 'nodes'),
    services: (env: Env) => inEnv(env, 'swarm', 'services'),
    service: (env: Env, id: string) => inEnv(env, 'swarm', 'service', id),
    tasks: (env: Env, id: string) => inEnv(env, 'swarm', 'tasks', id),
    stacks: (env: Env) => inEnv(env, 'swarm', 'stacks'),
    stack: (env: Env, name: string) => inEnv(env, 'swarm', 'stack', name),
    stackOutput: (env: Env, name: string) => inEnv(env, 'swarm', 'stack-output', name),
    /** A git-backed stack's remote, commits and local edits (null for a stack not from git). */
    stackGit: (env: Env, name: string) => inEnv(env, 'swarm', 'stack', name, 'git'),
    objects: (env: Env, kind: 'configs' | 'secrets') => inEnv(env, 'swarm', kind),
  },
  prune: {
    preview: (env: Env, resource: string | null) => inEnv(env, 'prune-preview', resource),
  },
  terminal: {
    shells: (env: Env, target: object) => inEnv(env, 'terminal', 'shells', target),
  },
  /** The overrides of apps and projects are an environment's; the policy and its runs are Berth's. */
  autoUpdate: {
    all: ['auto-update'] as const,
    settings: () => ['auto-update', 'settings'] as const,
    runs: () => ['auto-update', 'runs'] as const,
    apps: (env: Env) => inEnv(env, 'auto-update', 'app'),
    app: (env: Env, name: string) => inEnv(env, 'auto-update', 'app', name),
    projects: (env: Env) => inEnv(env, 'auto-update', 'project'),
    project: (env: Env, name: string) => inEnv(env, 'auto-update', 'project', name),
  },
  /** The global auto-heal default is Berth's; an app's or compose service's override is its environment's. */
  autoHeal: {
    settings: () => ['auto-heal', 'settings'] as const,
    all: (env: Env) => inEnv(env, 'auto-heal'),
    target: (env: Env, name: string, service?: string) => inEnv(env, 'auto-heal', name, service ?? null),
  },

  health: () => ['health'] as const,
  environments: {
    all: ['environments'] as const,
    list: () => ['environments', 'list'] as const,
  },
  users: { all: ['users'] as const },
  /** Stored registry credentials and what their registries list (global routes). */
  registries: {
    all: ['registries'] as const,
    list: () => ['registries', 'list'] as const,
    repositories: (id: number) => ['registries', 'repositories', id] as const,
    tags: (id: number, repo: string) => ['registries', 'tags', id, repo] as const,
  },
  /** An environment's policy for non-admins: read through the environments' own (global) routes. */
  policy: (env: Env) => ['policy', env] as const,
  account: {
    all: ['account'] as const,
    apiKeys: () => ['account', 'api-keys'] as const,
    sessions: () => ['account', 'sessions'] as const,
    status: () => ['account', 'status'] as const,
  },
  templates: {
    all: ['templates'] as const,
    list: () => ['templates', 'list'] as const,
    detail: (id: number) => ['templates', 'detail', id] as const,
    item: (id: number) => ['templates', 'item', id] as const,
  },
  variables: { all: ['template-variables'] as const },
  notifications: {
    all: ['notifications'] as const,
    channels: () => ['notifications', 'channels'] as const,
    rules: () => ['notifications', 'rules'] as const,
    history: () => ['notifications', 'history'] as const,
  },
  /** Backups are Berth's (a job names its environment): jobs, destinations, archives, runs. */
  backups: {
    all: ['backups'] as const,
    jobs: () => ['backups', 'jobs'] as const,
    destinations: () => ['backups', 'destinations'] as const,
    archives: () => ['backups', 'archives'] as const,
    runs: () => ['backups', 'runs'] as const,
  },
  /** Git credentials are Berth's, not an environment's. */
  gitCredentials: () => ['git-credentials'] as const,
  settings: {
    all: ['settings'] as const,
    info: () => ['settings', 'info'] as const,
    updateCheck: () => ['settings', 'update-check'] as const,
    importTargets: () => ['settings', 'import-targets'] as const,
  },
  audit: {
    all: ['audit'] as const,
    list: (filter: object) => ['audit', filter] as const,
  },
};
