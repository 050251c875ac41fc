import type { FastifyInstance } from 'fastify';
import { pruneApi } from '@berth/contract';
import { route } from '../lib/route';
import type { AppContext } from '../context';
import { PruneService } from '../services/prune';

export function pruneRoutes(app: FastifyInstance, ctx: AppContext): void {
  const prune = new PruneService(ctx.docker);
  route(app, pruneApi.prune, (req) => prune.run(req.params.resource, req.query.label));
}
