import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isEnvironmentScoped, scopedContractPath, withEnvironmentParam, type RouteDef } from '@berth/contract';
import type { z } from 'zod';

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
  register(app, def.path, def, def.params, handler);
  if (isEnvironmentScoped(def.path)) register(app, scopedContractPath(def.path), def, withEnvironmentParam(def.params), handler);
}

function register<T extends RouteDef>(app: FastifyInstance, path: string, def: T, params: z.ZodType | undefined, handler: Handler<T>): void {
  const methods = [def.method, ...(def.alsoMethods ?? [])];
  app.route({
    method: [...new Set(methods)],
    url: toFastifyPath(path),
    config: { open: def.open ?? false, audited: def.audited ?? false },
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
