import type { FastifyInstance } from 'fastify';
import { deployApi } from '@berth/contract';
import { route } from '../lib/route';
import type { Services } from '../app-services';

export function deployRoutes(app: FastifyInstance, { scope }: Services): void {
  route(app, deployApi.deploy, (req) => scope(req).deploy.deploy(req.body));
}
