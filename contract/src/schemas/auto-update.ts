import { z } from 'zod';
import { defineRoute } from '../route';
import { AppNameParams } from './app';

export const AUTO_UPDATE_MODES = ['notify', 'update'] as const;
export const AutoUpdateMode = z.enum(AUTO_UPDATE_MODES, {
  error: () => `The mode is one of: ${AUTO_UPDATE_MODES.join(', ')}.`,
});
export type AutoUpdateMode = z.infer<typeof AutoUpdateMode>;

/**
 * How far an update may move an image (issue 33): `digest` keeps the tag and takes the image it
 * names now; `patch`, `minor` and `major` move a version tag (`1.4.2`, `v1.4`, `1.4.2-alpine`) to
 * the newest tag of the registry within that range (same prefix, suffix and precision), and fall
 * back to the digest when there is none.
 */
export const VERSION_POLICIES = ['digest', 'patch', 'minor', 'major'] as const;
export const VersionPolicy = z.enum(VERSION_POLICIES, {
  error: () => `The version policy is one of: ${VERSION_POLICIES.join(', ')}.`,
});
export type VersionPolicy = z.infer<typeof VersionPolicy>;

/** A cron expression (5 fields, or 6 with seconds first); the server checks it with croner. */
const Schedule = z.string().trim().min(1, 'A schedule is a cron expression such as "0 4 * * *".').max(120);
const SettleSeconds = z.number().int().min(1, 'At least 1 second.').max(3600, 'At most 3600 seconds.');

/** The global policy: the default of every app. */
export const AutoUpdatePolicy = z.strictObject({
  enabled: z.boolean(),
  mode: AutoUpdateMode,
  schedule: Schedule,
  /** How long a new container without a HEALTHCHECK must run without restarting to count as good. */
  settle_seconds: SettleSeconds,
  /** Which newer images an update takes (left out: `digest`, the behaviour before it existed). */
  version_policy: VersionPolicy.default('digest'),
});
export type AutoUpdatePolicy = z.infer<typeof AutoUpdatePolicy>;
export const AutoUpdateSettings = AutoUpdatePolicy.extend({
  /** When the schedule fires next (ISO), null when it never will. */
  next_run_at: z.string().nullable(),
  /** The shortest gap allowed between two runs of any schedule (the browser checks a schedule as it is typed). */
  min_interval_seconds: z.number().int().min(1),
  /** The server's IANA time zone: schedules fire in it. */
  time_zone: z.string(),
});
export type AutoUpdateSettings = z.infer<typeof AutoUpdateSettings>;

/** An app's override: null fields follow the global policy (labels `berth.auto-update`, `berth.auto-update.schedule` win over both). */
export const AutoUpdateOverride = z.strictObject({
  enabled: z.boolean().nullable(),
  mode: AutoUpdateMode.nullable(),
  schedule: Schedule.nullable(),
  settle_seconds: SettleSeconds.nullable(),
  /** Label `berth.auto-update.version-policy` wins over it (a compose service's own policy). */
  version_policy: VersionPolicy.nullable().default(null),
});
export type AutoUpdateOverride = z.infer<typeof AutoUpdateOverride>;

export const AUTO_UPDATE_RESULTS = ['up_to_date', 'updated', 'rolled_back', 'failed', 'update_available'] as const;
export const AutoUpdateItem = z.object({
  name: z.string(),
  result: z.enum(AUTO_UPDATE_RESULTS),
  reason: z.string().nullable(),
  from_digest: z.string().nullable(),
  to_digest: z.string().nullable(),
  /** The tag an update by version moved (or would move) to, e.g. `1.5.0`; absent for an update by digest. */
  to_tag: z.string().nullish(),
});
export type AutoUpdateItem = z.infer<typeof AutoUpdateItem>;

export const AutoUpdateRun = z.object({
  id: z.number().int(),
  started_at: z.string(),
  /** Null while the run is under way. */
  finished_at: z.string().nullable(),
  /** `manual` (run now) or the schedule that fired. */
  trigger: z.string(),
  results: z.array(AutoUpdateItem),
});
export type AutoUpdateRun = z.infer<typeof AutoUpdateRun>;

export const AppAutoUpdate = z.object({
  override: AutoUpdateOverride,
  /** What applies after labels, the override and the global policy. */
  effective: AutoUpdatePolicy,
  /** Which labels set part of the effective policy. */
  labels: z.record(z.string(), z.string()),
  last: AutoUpdateItem.extend({ run_id: z.number().int(), at: z.string() }).nullable(),
});
export type AppAutoUpdate = z.infer<typeof AppAutoUpdate>;

/**
 * A compose project's auto-update: the project's override and, per service with a container, what
 * applies to it (its labels `berth.auto-update`, `berth.auto-update.schedule` win over the project's
 * override) and its last result. Run results name a service `<project>/<service>`.
 */
export const ProjectAutoUpdate = AppAutoUpdate.extend({
  services: z.array(
    z.object({
      name: z.string(),
      effective: AutoUpdatePolicy,
      labels: z.record(z.string(), z.string()),
      last: AppAutoUpdate.shape.last,
    }),
  ),
});
export type ProjectAutoUpdate = z.infer<typeof ProjectAutoUpdate>;

const ProjectNameParams = z.object({ name: z.string() });
const ScheduleQuery = z.object({ schedule: z.string().max(120) });

const RunIdParams = z.object({ id: z.coerce.number().int().min(1) });

export const autoUpdateApi = {
  get: defineRoute({
    method: 'GET',
    path: '/api/settings/auto-update',
    scope: 'global',
    tag: 'auto-update',
    summary: 'The global auto-update policy and when it runs next',
    role: 'viewer',
    response: AutoUpdateSettings,
  }),
  put: defineRoute({
    method: 'PUT',
    path: '/api/settings/auto-update',
    scope: 'global',
    tag: 'auto-update',
    summary: 'Set the global auto-update policy',
    role: 'admin',
    body: AutoUpdatePolicy,
    response: AutoUpdateSettings,
  }),
  run: defineRoute({
    method: 'POST',
    path: '/api/settings/auto-update/run',
    scope: 'global',
    tag: 'auto-update',
    summary:
      'Start a run over every app with auto-update enabled now; answers its id (the run goes on in the background)',
    role: 'operator',
    response: z.object({ id: z.number().int() }),
  }),
  runs: defineRoute({
    method: 'GET',
    path: '/api/settings/auto-update/runs',
    scope: 'global',
    tag: 'auto-update',
    summary: 'The last 50 runs, newest first',
    role: 'viewer',
    response: z.array(AutoUpdateRun),
  }),
  runById: defineRoute({
    method: 'GET',
    path: '/api/settings/auto-update/runs/{id}',
    scope: 'global',
    tag: 'auto-update',
    summary: 'One run with its results',
    role: 'viewer',
    params: RunIdParams,
    response: AutoUpdateRun,
  }),
  app: defineRoute({
    method: 'GET',
    path: '/api/apps/{name}/auto-update',
    scope: 'environment',
    tag: 'auto-update',
    summary: "An app's auto-update override, the effective policy and its last result",
    role: 'viewer',
    params: AppNameParams,
    response: AppAutoUpdate,
  }),
  putApp: defineRoute({
    method: 'PUT',
    path: '/api/apps/{name}/auto-update',
    scope: 'environment',
    tag: 'auto-update',
    summary: "Set an app's auto-update override (null fields follow the global policy)",
    role: 'operator',
    params: AppNameParams,
    body: AutoUpdateOverride,
    response: AppAutoUpdate,
  }),
  project: defineRoute({
    method: 'GET',
    path: '/api/compose/{name}/auto-update',
    scope: 'environment',
    tag: 'auto-update',
    summary: "A compose project's auto-update override, each service's effective policy and the last results",
    role: 'viewer',
    params: ProjectNameParams,
    response: ProjectAutoUpdate,
  }),
  putProject: defineRoute({
    method: 'PUT',
    path: '/api/compose/{name}/auto-update',
    scope: 'environment',
    tag: 'auto-update',
    summary: "Set a compose project's auto-update override (null fields follow the global policy)",
    role: 'operator',
    params: ProjectNameParams,
    body: AutoUpdateOverride,
    response: ProjectAutoUpdate,
  }),
  nextRun: defineRoute({
    method: 'GET',
    path: '/api/settings/auto-update/next-run',
    scope: 'global',
    tag: 'auto-update',
    summary: "When a schedule would fire next, in the server's time zone (a 400 when croner cannot read it)",
    role: 'viewer',
    querystring: ScheduleQuery,
    response: z.object({ next_run_at: z.string().nullable() }),
  }),
};
