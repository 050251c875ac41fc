import type { FastifyInstance } from 'fastify';
import { pruneApi } from '@berth/contract';
import { route } from '../lib/route';

export function pruneRoutes(app: FastifyInstance): void {
  route(app, pruneApi.preview, (req) => req.scope.prune.preview(req.params.resource, req.query.label));
  route(app, pruneApi.prune, (req) => req.scope.prune.run(req.params.resource, req.query.label));
}
