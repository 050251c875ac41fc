import type { FastifyInstance } from 'fastify';
import { environmentApi } from '@berth/contract';
import { route } from '../lib/route';
import type { Services } from '../app-services';

export function environmentsRoutes(
  app: FastifyInstance,
  { environmentsAdmin: environments, policies }: Services,
): void {
  route(app, environmentApi.list, () => environments.list());
  route(app, environmentApi.create, (req) => environments.create(req.body));
  route(app, environmentApi.get, (req) => environments.get(req.params.env));
  route(app, environmentApi.update, (req) => environments.update(req.params.env, req.body));
  route(app, environmentApi.remove, async (req) => {
    const removed = await environments.remove(req.params.env);
    // A later environment of the same id starts on the defaults, not on this one's policy.
    policies.forget(req.params.env);
    return removed;
  });
  route(app, environmentApi.test, (req) => environments.test(req.params.env));
}
