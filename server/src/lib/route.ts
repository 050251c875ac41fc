import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RouteDef } from '@berth/contract';
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
  }
}

/** `/api/apps/{name}` → `/api/apps/:name` */
export const toFastifyPath = (path: string) => path.replace(/\{(\w+)\}/g, ':$1');

/** Registers one contract endpoint (and its alias methods) with its schemas. */
export function route<T extends RouteDef>(app: FastifyInstance, def: T, handler: Handler<T>): void {
  const methods = [def.method, ...(def.alsoMethods ?? [])];
  app.route({
    method: [...new Set(methods)],
    url: toFastifyPath(def.path),
    config: { open: def.open ?? false },
    schema: {
      summary: def.summary,
      ...(def.params ? { params: def.params } : {}),
      ...(def.querystring ? { querystring: def.querystring } : {}),
      ...(def.body ? { body: def.body } : {}),
      response: { 200: def.response },
    },
    handler: handler as never,
  });
}
