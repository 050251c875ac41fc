import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { WebSocket } from '@fastify/websocket';
import {
  isEnvironmentScoped,
  scopedContractPath,
  withEnvironmentParam,
  type Role,
  type RouteDef,
} from '@berth/contract';
import type { z } from 'zod';
import type { LiveStreamSlot } from './live-streams';

type Req<T extends RouteDef> = FastifyRequest<{
  Params: T['params'] extends z.ZodType ? z.output<T['params']> : unknown;
  Querystring: T['querystring'] extends z.ZodType ? z.output<T['querystring']> : unknown;
  Body: T['body'] extends z.ZodType ? z.output<T['body']> : unknown;
}>;

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
  }
}

/** `/api/apps/{name}` → `/api/apps/:name` */
export const toFastifyPath = (path: string) => path.replace(/\{(\w+)\}/g, ':$1');

/**
 * Registers one contract endpoint (and its alias methods) with its schemas. An engine-backed
 * endpoint is registered a second time under `/api/environments/{env}/…` with the same handler;
 * handlers reach the engine through `services.scope(req)`, which reads that `env` param (absent:
 * `local`), so one handler serves every environment.
 */
export function route<T extends RouteDef>(app: FastifyInstance, def: T, handler: Handler<T>): void {
  for (const [path, params] of pathsOf(def)) register(app, path, def, params, handler);
}

/** The spec path and, for an engine-backed route, its `/api/environments/{env}/…` twin. */
function pathsOf(def: RouteDef): [string, z.ZodType | undefined][] {
  const paths: [string, z.ZodType | undefined][] = [[def.path, def.params]];
  if (isEnvironmentScoped(def.path)) paths.push([scopedContractPath(def.path), withEnvironmentParam(def.params)]);
  return paths;
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
  for (const [path, params] of pathsOf(def)) {
    app.route({
      method: 'GET',
      url: toFastifyPath(path),
      websocket: true,
      config: def.open ? { open: true, upgrade: true } : { open: false, role: def.role, upgrade: true },
      schema: {
        summary: def.summary,
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
  }
}

function register<T extends RouteDef>(
  app: FastifyInstance,
  path: string,
  def: T,
  params: z.ZodType | undefined,
  handler: Handler<T>,
): void {
  const methods = [def.method, ...(def.alsoMethods ?? [])];
  app.route({
    method: [...new Set(methods)],
    url: toFastifyPath(path),
    config: def.open
      ? { open: true, audited: def.audited ?? false }
      : { open: false, role: def.role, audited: def.audited ?? false },
    schema: {
      summary: def.summary,
      ...(params ? { params } : {}),
      ...(def.querystring ? { querystring: def.querystring } : {}),
      ...(def.body ? { body: def.body } : {}),
      response: { 200: def.response },
    },
    handler: handler as never,
  });
}
