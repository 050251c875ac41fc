import type { FastifyInstance } from 'fastify';
import { deployApi } from '@berth/contract';
import { route } from '../lib/route';
import type { Services } from '../app-services';

export function deployRoutes(app: FastifyInstance, { deploy }: Services): void {
  route(app, deployApi.deploy, (req) => deploy.deploy(req.body));
}
