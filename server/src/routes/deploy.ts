import type { FastifyInstance } from 'fastify';
import { deployApi } from '@berth/contract';
import { route } from '../lib/route';
import type { AppContext } from '../context';
import { VariablesRepo } from '../db/variables-repo';
import { DeployService } from '../services/deploy';
import { VariablesService } from '../services/variables';

export function deployRoutes(app: FastifyInstance, ctx: AppContext): void {
  const deploy = new DeployService(ctx.docker, new VariablesService(new VariablesRepo(ctx.db)), ctx.log);

  route(app, deployApi.deploy, (req) => deploy.deploy(req.body));
}
