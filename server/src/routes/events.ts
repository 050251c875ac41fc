import type { FastifyInstance } from 'fastify';
import { eventsApi } from '@berth/contract';
import { route } from '../lib/route';
import { openSse } from '../lib/sse';

export function eventsRoutes(app: FastifyInstance): void {
  route(app, eventsApi.list, (req) => req.scope.eventHistory.list(req.query));
  route(app, eventsApi.stream, async (req, reply) => {
    const history = req.scope.eventHistory;
    await history.stream(req.query, openSse(req, reply));
    return reply;
  });
}
