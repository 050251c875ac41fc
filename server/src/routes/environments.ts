import type { FastifyInstance } from 'fastify';
import { environmentApi } from '@berth/contract';
import { route } from '../lib/route';
import type { Services } from '../app-services';

export function environmentsRoutes(app: FastifyInstance, { environmentsAdmin: environments }: Services): void {
  route(app, environmentApi.list, () => environments.list());
  route(app, environmentApi.create, (req) => environments.create(req.body));
  route(app, environmentApi.get, (req) => environments.get(req.params.env));
  route(app, environmentApi.update, (req) => environments.update(req.params.env, req.body));
  route(app, environmentApi.remove, (req) => environments.remove(req.params.env));
  route(app, environmentApi.test, (req) => environments.test(req.params.env));
}
