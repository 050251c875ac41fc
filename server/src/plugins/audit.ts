import type { FastifyInstance, FastifyRequest } from 'fastify';
import { InsufficientStorageError } from '../errors';
import type { AuditService } from '../services/audit/audit';
import type { StorageStatus } from '../services/storage/storage-status';

const READ_METHODS = new Set(['GET', 'HEAD']);
/** Body fields that name what a call acts on when its path does not (deploy, new project, new key...). */
const TARGET_FIELDS = ['name', 'title', 'key_name', 'project', 'image'] as const;
/** The path parameter that picks the environment is where, not what. */
const ENV_PARAM = 'env';
const SUMMARY_MAX = 140;
const LOGIN_ROUTE = '/api/auth/login';
/** Stored instead of a failed sign-in's name when no account has it (it may be a password typed in the wrong box). */
export const UNKNOWN_USER = 'unknown user';

export interface AuditDeps {
  audit: AuditService;
  storage: StorageStatus;
  /** The account's name as stored, when `name` names an existing account; else null. */
  accountName: (name: string) => string | null;
}

/**
 * Writes one audit entry for every state-changing call once its response went out (every
 * non-GET route, the GET aliases of actions that plugins/auth.ts marks `csrf`, and the
 * contract's `audited` GETs), whatever
 * its outcome. Only names are taken from the request: the user, the route pattern, path
 * parameters and the naming body fields above; never a body's other fields.
 *
 * Calls refused to someone not signed in (and bodies that did not parse) are only counted, one
 * row per client and minute, so whoever reaches the port cannot fill the log; a sign-in that
 * reached the password check keeps its row. While DATA_DIR's disk is full, state-changing calls
 * are refused (507) before they act, since their entry could not be written.
 */
export function registerAudit(app: FastifyInstance, { audit, storage, accountName }: AuditDeps): void {
  const unparsed = new WeakSet<FastifyRequest>();
  app.addHook('onError', async (req, _reply, err) => {
    if (typeof err.code === 'string' && err.code.startsWith('FST_ERR_CTP_')) unparsed.add(req);
  });
  app.addHook('preHandler', async (req) => {
    if (stateChanging(req) && storage.full) throw new InsufficientStorageError(storage.detail);
  });
  // A batch answers one result per item; each item gets its own entry (its name and status), read from the answer.
  app.addHook('onSend', async (req, _reply, payload) => {
    if (req.routeOptions.config.batch === true && typeof payload === 'string') batchItems.set(req, itemsOf(payload));
    return payload;
  });
  app.addHook('onResponse', async (req, reply) => {
    const pattern = req.routeOptions.url;
    if (pattern === undefined || !stateChanging(req)) return;
    // Refused for want of room: it changed nothing, and its entry could not be written either.
    if (reply.statusCode === 507) return;
    const signIn = pattern === LOGIN_ROUTE && (reply.statusCode === 401 || reply.statusCode < 400);
    if (unparsed.has(req) || (!req.principal && reply.statusCode >= 400 && !signIn))
      return audit.refusedCall(req.ip, reply.statusCode);
    const params = (req.params ?? {}) as Record<string, unknown>;
    // On an environment route the environment is where it acted; on the environments' own routes it is what.
    const scoped = req.routeOptions.config.scope === 'environment';
    const env = scoped && typeof params[ENV_PARAM] === 'string' ? params[ENV_PARAM] : null;
    const entry = {
      user: who(req, accountName),
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

/** Whether the call is one the log records: every non-GET /api route, and GETs marked `csrf` or `audited`. */
function stateChanging(req: FastifyRequest): boolean {
  const pattern = req.routeOptions.url;
  if (pattern === undefined || !pattern.startsWith('/api/')) return false;
  const { csrf, audited } = req.routeOptions.config;
  return csrf === true || audited === true || !READ_METHODS.has(req.method);
}

function who(req: FastifyRequest, accountName: AuditDeps['accountName']): string | null {
  const p = req.principal;
  if (p) return p.via === 'api_key' && p.keyName ? `${p.username} (key ${p.keyName})` : p.username;
  // A sign-in names the account tried; what was typed is kept only when it is an account's name
  // (a password typed into the username box must not reach the log).
  if (req.routeOptions.url === LOGIN_ROUTE) {
    const typed = stringField(req.body, 'username');
    return (typed && accountName(typed)) ?? UNKNOWN_USER;
  }
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
