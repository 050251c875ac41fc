import { z } from 'zod';
import { defineRoute } from '../route';
import { AppNameParams } from './app';

const Checks = z.number().int().min(1, 'At least 1 check.').max(100, 'At most 100 checks.');
const MaxRestarts = z.number().int().min(1, 'At least 1 restart.').max(100, 'At most 100 restarts an hour.');
const Backoff = z.number().int().min(0, 'At least 0 seconds.').max(3600, 'At most 3600 seconds.');

/**
 * Auto-heal: restart a container whose health check has failed `checks` times in a row. Before
 * each restart Berth waits `backoff_seconds`, doubled for every restart already made in the last
 * hour; after `max_restarts` restarts in an hour it stops trying and notifies once
 * (`auto_heal_gave_up`). Berth's own container is never restarted.
 */
export const AutoHealPolicy = z.strictObject({
  enabled: z.boolean(),
  checks: Checks,
  max_restarts: MaxRestarts,
  backoff_seconds: Backoff,
});
export type AutoHealPolicy = z.infer<typeof AutoHealPolicy>;

export const AUTO_HEAL_DEFAULT: AutoHealPolicy = { enabled: false, checks: 3, max_restarts: 3, backoff_seconds: 10 };

/** An app's or compose service's override: null fields follow the global default. */
export const AutoHealOverride = z.strictObject({
  enabled: z.boolean().nullable(),
  checks: Checks.nullable(),
  max_restarts: MaxRestarts.nullable(),
  backoff_seconds: Backoff.nullable(),
});
export type AutoHealOverride = z.infer<typeof AutoHealOverride>;

/** What auto-heal did lately to one container name (app, or `<project>/<service>`). */
export const AutoHealState = z.object({
  /** Restarts made by auto-heal in the last hour. */
  restarts_last_hour: z.number().int(),
  last_restart_at: z.string().nullable(),
  /**
   * Set when auto-heal reached its cap and stopped trying, until the container is healthy again or
   * the give-up is reset; kept across restarts of Berth.
   */
  gave_up_at: z.string().nullable(),
});
export type AutoHealState = z.infer<typeof AutoHealState>;

export const TargetAutoHeal = z.object({
  override: AutoHealOverride,
  /** The override over the global default. */
  effective: AutoHealPolicy,
  state: AutoHealState,
});
export type TargetAutoHeal = z.infer<typeof TargetAutoHeal>;

const ServiceParams = z.object({ name: z.string(), service: z.string().min(1).max(255) });

export const autoHealApi = {
  get: defineRoute({
    method: 'GET',
    path: '/api/settings/auto-heal',
    scope: 'global',
    tag: 'settings',
    summary: 'The global auto-heal default (off unless set)',
    role: 'viewer',
    response: AutoHealPolicy,
  }),
  put: defineRoute({
    method: 'PUT',
    path: '/api/settings/auto-heal',
    scope: 'global',
    tag: 'settings',
    summary: 'Set the global auto-heal default',
    role: 'admin',
    body: AutoHealPolicy,
    response: AutoHealPolicy,
  }),
  app: defineRoute({
    method: 'GET',
    path: '/api/apps/{name}/auto-heal',
    scope: 'environment',
    tag: 'apps',
    summary: "An app's auto-heal override, the effective policy and what auto-heal did lately",
    role: 'viewer',
    params: AppNameParams,
    response: TargetAutoHeal,
  }),
  putApp: defineRoute({
    method: 'PUT',
    path: '/api/apps/{name}/auto-heal',
    scope: 'environment',
    tag: 'apps',
    summary: "Set an app's auto-heal override (null fields follow the global default)",
    role: 'operator',
    params: AppNameParams,
    body: AutoHealOverride,
    response: TargetAutoHeal,
  }),
  service: defineRoute({
    method: 'GET',
    path: '/api/compose/{name}/services/{service}/auto-heal',
    scope: 'environment',
    tag: 'projects',
    summary: "A compose service's auto-heal override, the effective policy and what auto-heal did lately",
    role: 'viewer',
    params: ServiceParams,
    response: TargetAutoHeal,
  }),
  putService: defineRoute({
    method: 'PUT',
    path: '/api/compose/{name}/services/{service}/auto-heal',
    scope: 'environment',
    tag: 'projects',
    summary: "Set a compose service's auto-heal override (null fields follow the global default)",
    role: 'operator',
    params: ServiceParams,
    body: AutoHealOverride,
    response: TargetAutoHeal,
  }),
  resetApp: defineRoute({
    method: 'POST',
    path: '/api/apps/{name}/auto-heal/reset',
    scope: 'environment',
    tag: 'apps',
    summary: 'Forget that auto-heal gave up on an app, and its restarts of the last hour: it tries again',
    role: 'operator',
    params: AppNameParams,
    response: TargetAutoHeal,
  }),
  resetService: defineRoute({
    method: 'POST',
    path: '/api/compose/{name}/services/{service}/auto-heal/reset',
    scope: 'environment',
    tag: 'projects',
    summary: 'Forget that auto-heal gave up on a compose service, and its restarts of the last hour: it tries again',
    role: 'operator',
    params: ServiceParams,
    response: TargetAutoHeal,
  }),
};
