import { z } from 'zod';
import { defineRoute } from '../route';
import { HEALTH_STATUSES } from './app';
import { BatchItemResult, BatchNames } from './batch';

/** A project's name is its folder's name; the leading character keeps it from reading as a CLI option. */
export const PROJECT_NAME_PATTERN = /^[a-z0-9][a-z0-9_-]{0,62}$/;
export const PROJECT_NAME_RULE =
  'A project name is 1 to 63 characters: lowercase letters, digits, _ and -, starting with a letter or digit.';

/** Whole-project actions, in the order the UI offers them (delete = down, then remove the folder). */
export const PROJECT_ACTIONS = [
  'up',
  'down',
  'start',
  'stop',
  'restart',
  'pull',
  'create',
  'kill',
  'rm',
  'delete',
] as const;
export const ProjectAction = z.enum(PROJECT_ACTIONS);
export type ProjectAction = z.infer<typeof ProjectAction>;
export const SERVICE_ACTIONS = ['up', 'start', 'stop', 'restart', 'pull', 'kill', 'rm'] as const;
export const ServiceAction = z.enum(SERVICE_ACTIONS);
export type ServiceAction = z.infer<typeof ServiceAction>;

const Scalar = z.union([z.string(), z.number(), z.boolean(), z.null()]);
/** `['K=V', ...]` or `{K: V}`, as written in the file. */
const ListOrMap = z.union([z.array(z.string()), z.record(z.string(), Scalar)]);

/**
 * The fields of a service the UI shows, as written in the file. A field whose shape is not one
 * of these is left out here (the file content still has it).
 */
export const ComposeService = z.object({
  image: z.string().optional(),
  container_name: z.string().optional(),
  env_file: z.union([z.string(), z.array(z.union([z.string(), z.looseObject({ path: z.string() })]))]).optional(),
  depends_on: z.union([z.array(z.string()), z.record(z.string(), z.looseObject({}).nullable())]).optional(),
  restart: z.string().optional(),
  read_only: z.boolean().optional(),
  networks: z.union([z.array(z.string()), z.record(z.string(), z.looseObject({}).nullable())]).optional(),
  ports: z.array(z.union([z.string(), z.number(), z.looseObject({})])).optional(),
  volumes: z.array(z.union([z.string(), z.looseObject({})])).optional(),
  environment: ListOrMap.optional(),
  labels: ListOrMap.optional(),
  command: z.union([z.string(), z.array(z.union([z.string(), z.number()]))]).optional(),
});
export type ComposeService = z.infer<typeof ComposeService>;
export const COMPOSE_SERVICE_FIELDS = Object.keys(ComposeService.shape) as (keyof ComposeService)[];

/** A container of a project, found by the compose labels. */
export const ProjectContainer = z.object({
  id: z.string(),
  name: z.string(),
  service: z.string(),
  state: z.string(),
  status: z.string(),
  image: z.string(),
  /** Its healthcheck's verdict (`none` without one or while not running). */
  health: z.enum(HEALTH_STATUSES).default('none'),
});
export type ProjectContainer = z.infer<typeof ProjectContainer>;

export const PROJECT_STATES = ['running', 'partial', 'stopped', 'not created'] as const;

/**
 * A project's live state: `running` (every service has a running container), `partial` (some do),
 * `stopped` (containers exist, none runs), `not created` (no container); with the counts behind it.
 */
export const ProjectStatus = z.object({
  state: z.enum(PROJECT_STATES),
  services: z.number().int(),
  runningServices: z.number().int(),
  containers: z.number().int(),
  runningContainers: z.number().int(),
});
export type ProjectStatus = z.infer<typeof ProjectStatus>;

export const Project = z.object({
  name: z.string(),
  /** Absolute path of the compose file (of the folder when the file is missing or unreadable). */
  path: z.string(),
  /** The file's `version` key; null when it has none (the compose specification dropped it). */
  version: z.string().nullable(),
  services: z.record(z.string(), ComposeService),
  networks: z.array(z.string()),
  volumes: z.array(z.string()),
  /** Any container of the project exists (running or not). */
  inUse: z.boolean(),
  /** Why the project cannot be read (broken YAML, bad folder name...); the other fields are then empty. */
  error: z.string().nullable(),
  /** Started outside Berth (found from its containers' labels): actions and logs work; adopt it to edit it. */
  external: z.boolean().default(false),
  status: ProjectStatus,
});
export type Project = z.infer<typeof Project>;

export const ProjectDetail = Project.extend({
  content: z.string(),
  containers: z.array(ProjectContainer),
});
export type ProjectDetail = z.infer<typeof ProjectDetail>;

/** Compose files are small; the server refuses more than this before parsing. */
export const MAX_COMPOSE_BYTES = 512 * 1024;

export const WriteProjectBody = z.strictObject({
  name: z.string().max(200),
  content: z.string(),
});
export type WriteProjectBody = z.infer<typeof WriteProjectBody>;
/** A new project: its compose file and, optionally, its .env text (written with it, 0600; used by the check). */
export const CreateProjectBody = WriteProjectBody.extend({
  env: z
    .string()
    .max(1024 * 1024)
    .nullish(),
});
export type CreateProjectBody = z.infer<typeof CreateProjectBody>;
export const WrittenProject = z.object({
  name: z.string(),
  path: z.string(),
  content: z.string(),
  /** What the file needs before it can run but did not stop the save (a build context or env file not there yet, a key the CLI is too old for). */
  warnings: z.array(z.string()).default([]),
});
export type WrittenProject = z.infer<typeof WrittenProject>;

/** What `up` would do, worked out before it runs. */
export const ProjectPlan = z.object({
  services: z.array(
    z.object({
      name: z.string(),
      /**
       * create: no container yet; recreate: its container was made from a different config; unchanged: up leaves it
       * (starting it if stopped); inactive: none of its `profiles` is active (COMPOSE_PROFILES), so up does not start it.
       */
      action: z.enum(['create', 'recreate', 'unchanged', 'inactive']),
      /** The service's `profiles` (empty: always started). */
      profiles: z.array(z.string()),
      image: z.string().nullable(),
      /** The image is not on the engine and has to be pulled. */
      pull: z.boolean(),
      build: z.boolean(),
    }),
  ),
  /** The profiles `up` starts: COMPOSE_PROFILES from Berth's environment or the project's .env (`*`: all). */
  active_profiles: z.array(z.string()),
  /** Containers of the project whose service is no longer in the file (up leaves them; down removes them). */
  orphans: z.array(z.object({ name: z.string(), service: z.string() })),
  /** Host ports the file publishes that another container already holds. */
  port_conflicts: z.array(z.object({ service: z.string(), port: z.string(), used_by: z.string() })),
  /** Bind-mount host paths that do not exist (docker would create them as empty root-owned folders). */
  missing_binds: z.array(z.object({ service: z.string(), path: z.string() })),
  /** Host paths can only be checked on the engine Berth runs beside (not on a remote environment). */
  binds_checked: z.boolean(),
});
export type ProjectPlan = z.infer<typeof ProjectPlan>;

/** A project's .env: values come back masked (`********`) unless revealed; a masked line sent back keeps its stored value. */
export const ProjectEnv = z.object({ exists: z.boolean(), content: z.string() });
export type ProjectEnv = z.infer<typeof ProjectEnv>;
export const WriteProjectEnvBody = z.strictObject({ content: z.string() });
export const RevealProjectEnvBody = z.strictObject({ current_password: z.string().optional() });

export const ConvertRunBody = z.strictObject({ command: z.string() });
export const ConvertedRun = z.object({ content: z.string(), warnings: z.array(z.string()) });
export type ConvertedRun = z.infer<typeof ConvertedRun>;

/** A stack template made into a project: its compose file fetched, `env` values and template variables filled in; not started. */
export const ProjectFromTemplateBody = z.strictObject({
  item_id: z.number({ error: 'Must be a template item id.' }).int().positive('Must be a template item id.'),
  name: z.string().max(200),
  /** Values for the template's env entries (by name); an entry left out takes its default. */
  env: z.record(z.string(), z.string().max(4096)).default({}),
});
export type ProjectFromTemplateBody = z.infer<typeof ProjectFromTemplateBody>;

export const ActionResult = z.object({
  name: z.string(),
  action: z.string(),
  service: z.string().nullable(),
  /** What the compose CLI printed (stdout and stderr interleaved, capped). */
  output: z.string(),
  /** The project list after the action, as the original product returned it. */
  projects: z.array(Project),
});
export type ActionResult = z.infer<typeof ActionResult>;

/** Events of GET /api/compose/{name}/actions/stream. */
export const ActionStreamEvent = {
  /** data: {action, service, output} — sent on connect (replay) and when an action starts */
  state: 'state',
  /** data: a chunk of CLI output */
  output: 'output',
  /** data: {action, service, ok, detail} */
  end: 'end',
} as const;
export const ActionState = z.object({
  running: z.boolean(),
  action: z.string().nullable(),
  service: z.string().nullable(),
  output: z.string(),
  /** ISO time the action started (absent when there is none). */
  startedAt: z.string().optional(),
  /** ISO time the last action ended and whether it succeeded (only when it has ended). */
  endedAt: z.string().optional(),
  ok: z.boolean().optional(),
});
export type ActionState = z.infer<typeof ActionState>;
export const ActionEnd = z.object({
  action: z.string(),
  service: z.string().nullable(),
  ok: z.boolean(),
  detail: z.string().nullable(),
  endedAt: z.string().optional(),
});
export type ActionEnd = z.infer<typeof ActionEnd>;

/** Names are checked by the server's one path resolver, so a bad one gets the rule in its 400. */
const NameParams = z.object({ name: z.string() });
const ActionParams = z.object({ name: z.string(), action: ProjectAction });
const ServiceActionParams = z.object({ project: z.string(), action: ServiceAction, service: z.string() });

export const ProjectBatchBody = z.strictObject({ action: ProjectAction, names: BatchNames });

export const projectApi = {
  list: defineRoute({
    method: 'GET',
    role: 'viewer',
    path: '/api/compose/',
    scope: 'environment',
    tag: 'projects',
    summary: 'Compose projects under COMPOSE_DIR',
    response: z.array(Project),
  }),
  get: defineRoute({
    method: 'GET',
    role: 'viewer',
    path: '/api/compose/{name}',
    scope: 'environment',
    tag: 'projects',
    summary: 'One project with its file content and containers',
    params: NameParams,
    response: ProjectDetail,
  }),
  create: defineRoute({
    method: 'POST',
    role: 'operator',
    path: '/api/compose/',
    scope: 'environment',
    tag: 'projects',
    summary: 'Create a project (validated, written atomically), optionally with its .env text (`env`)',
    body: CreateProjectBody,
    response: WrittenProject,
  }),
  adopt: defineRoute({
    method: 'POST',
    path: '/api/compose/{name}/adopt',
    scope: 'environment',
    tag: 'projects',
    summary:
      "Copy a project started outside Berth (its compose file and .env) into Berth's folder; its containers keep running",
    role: 'operator',
    params: NameParams,
    response: WrittenProject,
  }),
  plan: defineRoute({
    method: 'GET',
    path: '/api/compose/{name}/plan',
    scope: 'environment',
    tag: 'projects',
    summary: 'What up would do: services created or recreated, images to pull, host ports taken, bind paths missing',
    role: 'viewer',
    params: NameParams,
    response: ProjectPlan,
  }),
  env: defineRoute({
    method: 'GET',
    path: '/api/compose/{name}/env',
    scope: 'environment',
    tag: 'projects',
    summary: "The project's .env with its values masked",
    role: 'operator',
    params: NameParams,
    response: ProjectEnv,
  }),
  writeEnv: defineRoute({
    method: 'PUT',
    path: '/api/compose/{name}/env',
    scope: 'environment',
    tag: 'projects',
    summary: "Replace the project's .env (written atomically, 0600); masked values keep what is stored",
    role: 'operator',
    params: NameParams,
    body: WriteProjectEnvBody,
    response: ProjectEnv,
  }),
  revealEnv: defineRoute({
    method: 'POST',
    path: '/api/compose/{name}/env/reveal',
    scope: 'environment',
    tag: 'projects',
    summary: "The project's .env with its values, after re-authentication (current_password)",
    role: 'operator',
    params: NameParams,
    body: RevealProjectEnvBody,
    response: ProjectEnv,
  }),
  convertRun: defineRoute({
    method: 'POST',
    path: '/api/compose/convert-run',
    scope: 'environment',
    tag: 'projects',
    summary: 'Turn a `docker run …` command line into a compose file (only parsed, never run)',
    role: 'operator',
    body: ConvertRunBody,
    response: ConvertedRun,
  }),
  fromTemplate: defineRoute({
    method: 'POST',
    path: '/api/compose/from-template',
    scope: 'environment',
    tag: 'projects',
    summary: 'Create a project from a stack template (compose file fetched, values filled in, validated, not started)',
    role: 'operator',
    body: ProjectFromTemplateBody,
    response: WrittenProject,
  }),
  edit: defineRoute({
    method: 'POST',
    role: 'operator',
    path: '/api/compose/{name}/edit',
    scope: 'environment',
    tag: 'projects',
    summary: 'Create or replace a project file (validated, written atomically)',
    params: NameParams,
    body: WriteProjectBody,
    response: WrittenProject,
  }),
  stream: defineRoute({
    method: 'GET',
    role: 'viewer',
    path: '/api/compose/{name}/actions/stream',
    scope: 'environment',
    tag: 'projects',
    summary: 'Live output of the running action (SSE: state, output, end)',
    params: NameParams,
    response: z.unknown(),
  }),
  action: defineRoute({
    method: 'POST',
    role: 'operator',
    path: '/api/compose/{name}/actions/{action}',
    scope: 'environment',
    tag: 'projects',
    summary: 'Run a compose action on the whole project',
    alsoMethods: ['GET'],
    params: ActionParams,
    response: ActionResult,
  }),
  serviceAction: defineRoute({
    method: 'POST',
    role: 'operator',
    path: '/api/compose/{project}/actions/{action}/{service}',
    scope: 'environment',
    tag: 'projects',
    summary: 'Run a compose action on one service',
    alsoMethods: ['GET'],
    params: ServiceActionParams,
    response: ActionResult,
  }),
  batch: defineRoute({
    method: 'POST',
    path: '/api/compose/batch',
    scope: 'environment',
    tag: 'projects',
    batch: true,
    summary: 'One compose action on many projects, a few at a time; one result per project and the project list',
    role: 'operator',
    body: ProjectBatchBody,
    response: z.object({ results: z.array(BatchItemResult), projects: z.array(Project) }),
  }),
  support: defineRoute({
    method: 'GET',
    role: 'operator',
    path: '/api/compose/{name}/support',
    scope: 'environment',
    tag: 'projects',
    summary: 'Zip of the compose file (environment values redacted) and each service log',
    params: NameParams,
    response: z.unknown(),
  }),
};
