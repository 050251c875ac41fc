import type { FastifyInstance, FastifyRequest } from 'fastify';
import { environmentApi } from '@berth/contract';
import { route, socketRoute } from '../lib/route';
import type { Services } from '../app-services';

/** Where an agent dials this Berth: the address the admin's browser used. */
const berthUrl = (req: FastifyRequest) => `${req.protocol}://${req.host}`;

export function environmentsRoutes(
  app: FastifyInstance,
  { environmentsAdmin: environments, policies, agents, agentEnvironments }: Services,
): void {
  route(app, environmentApi.list, () => environments.list());
  route(app, environmentApi.create, (req) => environments.create(req.body));
  route(app, environmentApi.createAgent, (req) => agentEnvironments.create(req.body, berthUrl(req)));
  route(app, environmentApi.get, (req) => environments.get(req.params.env));
  route(app, environmentApi.update, (req) => environments.update(req.params.env, req.body));
  route(app, environmentApi.remove, async (req) => {
    const removed = await environments.remove(req.params.env);
    // A later environment of the same id starts on the defaults, not on this one's policy.
    policies.forget(req.params.env);
    return removed;
  });
  route(app, environmentApi.test, (req) => environments.test(req.params.env));
  route(app, environmentApi.agentToken, (req) => agentEnvironments.token(req.params.env, berthUrl(req)));
  route(app, environmentApi.agentRevoke, (req) => agentEnvironments.revoke(req.params.env));
  // The agent authenticates in its first messages (its key, or its one-time token): the route is open.
  socketRoute(app, environmentApi.agentConnect, {
    check: async () => undefined,
    open: (socket, req) => agents.accept(socket, req.ip),
  });
}
