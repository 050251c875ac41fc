import type { FastifyInstance } from 'fastify';
import { deployApi } from '@berth/contract';
import { route } from '../lib/route';
import { requirePrincipal } from '../plugins/auth';

export function deployRoutes(app: FastifyInstance): void {
  route(app, deployApi.deploy, (req) => req.scope.deploy.deploy(req.body, requirePrincipal(req)));
}
