import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AuditService } from '../services/audit/audit';

const READ_METHODS = new Set(['GET', 'HEAD']);
/** Body fields that name what a call acts on when its path does not (deploy, new project, new key...). */
const TARGET_FIELDS = ['name', 'title', 'key_name', 'project', 'image'] as const;
/** The path parameter that picks the environment is where, not what. */
const ENV_PARAM = 'env';
const SUMMARY_MAX = 140;

/**
 * Writes one audit entry for every state-changing call once its response went out (every
 * non-GET route, the GET aliases of actions that plugins/auth.ts marks `csrf`, and the
 * contract's `audited` GETs), whatever
 * its outcome. Only names are taken from the request: the user, the route pattern, path
 * parameters and the naming body fields above; never a body's other fields.
 */
export function registerAudit(app: FastifyInstance, audit: AuditService): void {
  // A batch answers one result per item; each item gets its own entry (its name and status), read from the answer.
  app.addHook('onSend', async (req, _reply, payload) => {
    if (req.routeOptions.config.batch === true && typeof payload === 'string') batchItems.set(req, itemsOf(payload));
    return payload;
  });
  app.addHook('onResponse', async (req, reply) => {
    const pattern = req.routeOptions.url;
    if (pattern === undefined || !pattern.startsWith('/api/')) return;
    const { csrf, audited } = req.routeOptions.config;
    if (csrf !== true && audited !== true && READ_METHODS.has(req.method)) return;
    const params = (req.params ?? {}) as Record<string, unknown>;
    // On an environment route the environment is where it acted; on the environments' own routes it is what.
    const scoped = req.routeOptions.config.scope === 'environment';
    const env = scoped && typeof params[ENV_PARAM] === 'string' ? params[ENV_PARAM] : null;
    const entry = {
      user: who(req),
      client: req.ip,
      method: req.method,
      route: pattern.replace(/:(\w+)/g, '{$1}'),
      target: target(params, req.body, scoped),
      status: reply.statusCode,
      summary: summary(req) + (env ? ` (environment ${env})` : ''),
    };
    const items = batchItems.get(req);
    if (!items?.length) return audit.record(entry);
    const action = stringField(req.body, 'action') ?? 'batch';
    for (const item of items)
      audit.record({
        ...entry,
        target: item.name,
        status: item.status,
        summary: `${action} ${item.name} (one of ${items.length})${env ? ` (environment ${env})` : ''}`,
      });
  });
}

const batchItems = new WeakMap<FastifyRequest, { name: string; status: number }[]>();

/** The items of a batch answer: `{results: [{name, status}…]}`; anything else has none. */
function itemsOf(payload: string): { name: string; status: number }[] {
  try {
    const results = (JSON.parse(payload) as { results?: unknown }).results;
    if (!Array.isArray(results)) return [];
    return results.flatMap((r) =>
      r && typeof r.name === 'string' && typeof r.status === 'number'
        ? [{ name: r.name as string, status: r.status as number }]
        : [],
    );
  } catch {
    // Not JSON (an error page of another kind): the call gets its one entry.
    return [];
  }
}

function who(req: FastifyRequest): string | null {
  const p = req.principal;
  if (p) return p.via === 'api_key' && p.keyName ? `${p.username} (key ${p.keyName})` : p.username;
  // A sign-in names who tried, whether it worked or not (the name is not a secret; the password never leaves the body).
  if (req.routeOptions.url === '/api/auth/login') return stringField(req.body, 'username');
  return null;
}

function target(params: Record<string, unknown>, body: unknown, scoped: boolean): string | null {
  const fromPath = Object.entries(params)
    .filter(([k, v]) => !(scoped && k === ENV_PARAM) && (typeof v === 'number' || (typeof v === 'string' && v !== '')))
    .map(([, v]) => String(v));
  if (fromPath.length) return fromPath.join('/');
  for (const field of TARGET_FIELDS) {
    const v = stringField(body, field);
    if (v) return v;
  }
  return null;
}

function stringField(body: unknown, field: string): string | null {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return null;
  const v = (body as Record<string, unknown>)[field];
  return typeof v === 'string' && v.trim() ? v.trim().slice(0, 200) : null;
}

/** The contract's summary of the route, up to its first sentence. */
function summary(req: FastifyRequest): string {
  const text =
    (req.routeOptions.schema as { summary?: string } | undefined)?.summary ?? `${req.method} ${req.routeOptions.url}`;
  let first = text.split(/[.;:](\s|$)/)[0] ?? text;
  if (first.split('(').length > first.split(')').length) first += '…)';
  return first.length > SUMMARY_MAX ? `${first.slice(0, SUMMARY_MAX - 1)}…` : first;
}
