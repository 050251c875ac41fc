import type { FastifyInstance } from 'fastify';
import { eventsApi } from '@berth/contract';
import { route } from '../lib/route';
import { openSse } from '../lib/sse';
import type { Services } from '../app-services';

export function eventsRoutes(app: FastifyInstance, services: Services): void {
  route(app, eventsApi.list, (req) => services.scope(req).eventHistory.list(req.query));
  route(app, eventsApi.stream, async (req, reply) => {
    const history = services.scope(req).eventHistory;
    await history.stream(req.query, openSse(req, reply));
    return reply;
  });
}
