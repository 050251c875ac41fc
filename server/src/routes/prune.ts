import type { FastifyInstance } from 'fastify';
import { pruneApi } from '@berth/contract';
import { route } from '../lib/route';
import type { Services } from '../app-services';

export function pruneRoutes(app: FastifyInstance, { scope }: Services): void {
  route(app, pruneApi.preview, (req) => scope(req).prune.preview(req.params.resource, req.query.label));
  route(app, pruneApi.prune, (req) => scope(req).prune.run(req.params.resource, req.query.label));
}
