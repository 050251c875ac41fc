import type { FastifyInstance } from 'fastify';
import { hostApi, metricsApi } from '@berth/contract';
import type { Services } from '../app-services';
import { route } from '../lib/route';
import { openSse } from '../lib/sse';

export function hostRoutes(app: FastifyInstance, { metrics }: Services): void {
  route(app, hostApi.get, (req) => req.scope.host.overview());
  route(app, hostApi.stream, (req, reply) => {
    req.scope.host.stream(openSse(req, reply));
    return reply;
  });
  route(app, metricsApi.get, async (_req, reply) => {
    const { text, contentType } = await metrics.metrics();
    return reply
      .type(contentType)
      .serializer((s: string) => s)
      .send(text);
  });
}
