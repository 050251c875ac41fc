import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { WebSocket } from '@fastify/websocket';
import { LOCAL_ENVIRONMENT, withEnvironmentParam, type Role, type RouteDef, type RouteScope } from '@berth/contract';
import type { z } from 'zod';
import type { EngineScope } from '../app-services';
import type { LiveStreamSlot } from './live-streams';

/**
 * The request a handler gets: typed from the contract's schemas, and with `scope` (the
 * environment's services, set by the environment plugin's hook) only on an environment route. A
 * global route's handler has no scope to ask for: `req.scope` there is a type error.
 */
export type Req<T extends RouteDef> = FastifyRequest<{
  Params: T['params'] extends z.ZodType ? z.output<T['params']> : unknown;
  Querystring: T['querystring'] extends z.ZodType ? z.output<T['querystring']> : unknown;
  Body: T['body'] extends z.ZodType ? z.output<T['body']> : unknown;
}> &
  (T['scope'] extends 'environment' ? { scope: EngineScope } : unknown);

export type Handler<T extends RouteDef> = (
  req: Req<T>,
  reply: FastifyReply,
) => Promise<z.input<T['response']> | FastifyReply> | z.input<T['response']> | FastifyReply;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Set from the contract: open routes skip the auth check. */
    open?: boolean;
    /** Set from the contract: a GET that the audit log records (sign-out). */
    audited?: boolean;
    /** Set from the contract: the lowest role that may call the route; the auth hook refuses a route without one. */
    role?: Role;
    /** Set from the contract: where the route acts (an environment's engine, or Berth itself). */
    scope?: RouteScope;
    /** Set from the contract: the answer holds one result per item (the audit log records each). */
    batch?: boolean;
    /** Set by the route's module: the handler may run the compose CLI, so it waits for its detection at start. */
    usesCompose?: boolean;
  }
}

/** What a route module says about a route beyond its contract definition. */
export interface RouteOptions {
  /** The handler may run the compose CLI (see FastifyContextConfig.usesCompose). */
  usesCompose?: boolean;
}

/** `/api/apps/{name}` → `/api/apps/:name` */
export const toFastifyPath = (path: string) => path.replace(/\{(\w+)\}/g, ':$1');

/**
 * Registers one route on `instance` at `path` (a contract path: `{name}` placeholders), with
 * `params` as its params schema.
 */
type Registration = (instance: FastifyInstance, path: string, params: z.ZodType | undefined) => void;

/** Environment routes noted by route() and socketRoute(), registered by registerEnvironmentRoutes(). */
const environmentRoutes = new WeakMap<FastifyInstance, { defs: RouteDef[]; add: Registration[] }>();

/** Starts noting `app`'s environment routes; registerEnvironmentRoutes() registers them. */
export function collectEnvironmentRoutes(app: FastifyInstance): void {
  environmentRoutes.set(app, { defs: [], add: [] });
}

/**
 * Registers a route: a global one at once, at its path; an environment one is noted, and
 * registerEnvironmentRoutes() registers it in the environment plugin.
 */
function add(app: FastifyInstance, def: RouteDef, registration: Registration): void {
  if (def.scope === 'global') return registration(app, def.path, def.params);
  if (def.scope !== 'environment') throw new Error(`${def.method} ${def.path}: the contract gives it no valid scope`);
  const noted = environmentRoutes.get(app);
  if (!noted)
    throw new Error(`${def.method} ${def.path}: an environment route is registered on the app the routes are built on`);
  noted.defs.push(def);
  noted.add.push(registration);
}

/**
 * Registers every environment route once, in one plugin: under `/api/environments/:env` (the
 * environment its path names) and under `/api`, at the spec's own path (acting on `local`). The
 * plugin's hook sets `req.scope` to the environment's services (404 for an unknown one) after
 * auth and validation, so one handler serves every environment and none guesses which.
 */
export async function registerEnvironmentRoutes(
  app: FastifyInstance,
  scopeOf: (env: string) => EngineScope,
  /** Plugins the environment routes need in their own scope (body parsers). */
  setup?: (instance: FastifyInstance) => Promise<void>,
): Promise<void> {
  const noted = environmentRoutes.get(app);
  environmentRoutes.delete(app);
  if (!noted) throw new Error('collectEnvironmentRoutes(app) was not called before the routes were added');
  const plugin = async (instance: FastifyInstance, opts: { env?: string }) => {
    await setup?.(instance);
    instance.decorateRequest('scope', null);
    instance.addHook('preHandler', async (req) => {
      const env = opts.env ?? (req.params as { env: string }).env;
      (req as FastifyRequest & { scope: EngineScope }).scope = scopeOf(env);
    });
    noted.defs.forEach((def, i) => {
      const rest = def.path.slice('/api'.length);
      if (opts.env === undefined) noted.add[i]!(instance, rest, withEnvironmentParam(def.params));
      else noted.add[i]!(instance, rest, def.params);
    });
  };
  await app.register(plugin, { prefix: '/api/environments/:env' });
  await app.register(plugin, { prefix: '/api', env: LOCAL_ENVIRONMENT });
}

/** Registers one contract endpoint (and its alias methods) with its schemas. */
export function route<T extends RouteDef>(
  app: FastifyInstance,
  def: T,
  handler: Handler<T>,
  options: RouteOptions = {},
): void {
  add(app, def, (instance, path, params) => {
    const methods = [def.method, ...(def.alsoMethods ?? [])];
    instance.route({
      method: [...new Set(methods)],
      url: toFastifyPath(path),
      config: { ...configOf(def), audited: def.audited ?? false, usesCompose: options.usesCompose ?? false },
      schema: {
        summary: def.summary,
        tags: [def.tag],
        ...(params ? { params } : {}),
        ...(def.querystring ? { querystring: def.querystring } : {}),
        ...(def.body ? { body: def.body } : {}),
        response: { 200: def.response },
      },
      handler: handler as never,
    });
  });
}

function configOf(def: RouteDef) {
  const access = def.open ? { open: true } : { open: false, role: def.role };
  return { ...access, scope: def.scope, batch: def.batch ?? false };
}

export interface SocketHandlers<T extends RouteDef, C> {
  /** Runs before the upgrade (after auth and validation): throw an AppError to answer with JSON instead. */
  check: (req: Req<T>) => Promise<C>;
  /**
   * Runs once the socket is open, with what `check` answered and the socket's place in the
   * live-stream registry: end the socket when `slot.revoked` aborts (its place is given back when it closes).
   */
  open: (socket: WebSocket, req: Req<T>, checked: C, slot: LiveStreamSlot) => void | Promise<void>;
}

/** Without a registry (a bare app in a unit test) a socket still gets a slot that is never revoked. */
const UNTRACKED: LiveStreamSlot = { revoked: new AbortController().signal, release: () => undefined };

/**
 * Registers a WebSocket endpoint (GET with Upgrade) like route() does a plain one: same paths,
 * same params/query schemas, auth by the global hook (as a state change: same origin and CSRF).
 * Before the upgrade the socket takes a place in the live-stream registry (429 beyond its caps).
 */
export function socketRoute<T extends RouteDef, C>(app: FastifyInstance, def: T, handlers: SocketHandlers<T, C>): void {
  const checked = new WeakMap<object, { value: C; slot: LiveStreamSlot }>();
  add(app, def, (instance, path, params) => {
    instance.route({
      method: 'GET',
      url: toFastifyPath(path),
      websocket: true,
      config: { ...configOf(def), upgrade: true },
      schema: {
        summary: def.summary,
        tags: [def.tag],
        ...(params ? { params } : {}),
        ...(def.querystring ? { querystring: def.querystring } : {}),
      },
      preHandler: async (req) => {
        const slot = req.server.liveStreams?.open(req) ?? UNTRACKED;
        try {
          checked.set(req.raw, { value: await handlers.check(req as Req<T>), slot });
        } catch (err) {
          slot.release();
          throw err;
        }
        req.raw.socket.once('close', slot.release);
      },
      handler: (socket: WebSocket, req: FastifyRequest) => {
        const { value, slot } = checked.get(req.raw)!;
        socket.once('close', slot.release);
        return handlers.open(socket, req as Req<T>, value, slot);
      },
    });
  });
}
