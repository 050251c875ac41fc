import type { FastifyInstance } from 'fastify';
import { variablesApi } from '@berth/contract';
import { route } from '../lib/route';
import type { AppContext } from '../context';
import { VariablesRepo } from '../db/variables-repo';
import { VariablesService } from '../services/variables';

export function variablesRoutes(app: FastifyInstance, ctx: AppContext): void {
  const variables = new VariablesService(new VariablesRepo(ctx.db));

  route(app, variablesApi.list, () => variables.list());
  route(app, variablesApi.save, (req) => variables.save(req.body));
}
