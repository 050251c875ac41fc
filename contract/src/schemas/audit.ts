import { z } from 'zod';
import { defineRoute } from '../route';
import { QueryInstant as Instant } from './time';

/** One state-changing call, recorded after it completed. Never holds secrets or request bodies. */
export const AuditEntry = z.object({
  id: z.number().int(),
  time: z.string(),
  /**
   * The user's email, `<email> (key <key name>)` for an API key, `unknown user` for a failed
   * sign-in naming no account, or null when nobody was signed in.
   */
  user: z.string().nullable(),
  client: z.string(),
  method: z.string(),
  /** The route pattern, e.g. /api/apps/{name}/actions/{action}. */
  route: z.string(),
  /** What it acted on (app, project, image... name), when it names one. */
  target: z.string().nullable(),
  status: z.number().int(),
  summary: z.string(),
});
export type AuditEntry = z.infer<typeof AuditEntry>;

export const AuditQuery = z.object({
  since: Instant.optional(),
  until: Instant.optional(),
  /** Part of the user's name (email or key name). */
  user: z.string().trim().min(1).max(255).optional(),
  /** Part of the method and route, e.g. `DELETE` or `/api/apps`. */
  action: z.string().trim().min(1).max(255).optional(),
  /** Part of the target's name. */
  target: z.string().trim().min(1).max(255).optional(),
  limit: z.coerce.number().int().min(1).max(10000).default(200),
});
export type AuditQuery = z.output<typeof AuditQuery>;

export const AuditExportQuery = AuditQuery.extend({
  format: z.enum(['csv', 'json'], { message: 'Use format=csv or format=json.' }).default('json'),
});

export const auditApi = {
  list: defineRoute({
    method: 'GET',
    path: '/api/audit',
    scope: 'global',
    tag: 'audit',
    role: 'admin',
    summary: 'Audit log of state-changing calls, newest first (kept for AUDIT_RETENTION_DAYS; read-only)',
    querystring: AuditQuery,
    response: z.array(AuditEntry),
  }),
  export: defineRoute({
    method: 'GET',
    path: '/api/audit/export',
    scope: 'global',
    tag: 'audit',
    role: 'admin',
    summary: 'The audit log (same filters) as a CSV or JSON download',
    querystring: AuditExportQuery,
    response: z.string().describe('text/csv or application/json'),
  }),
};
