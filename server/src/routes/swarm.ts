import type { FastifyInstance } from 'fastify';
import { swarmApi } from '@berth/contract';
import type { Services } from '../app-services';
import { route } from '../lib/route';
import { envShownTo, requirePrincipal } from '../plugins/auth';
import { maskStackEnv } from '../services/auth/env-visibility';
import { openSse } from '../lib/sse';
import { LOG_TAIL_LINES, parseLogRange } from '../services/logs/log-range';
import { streamActivity } from './compose';

export function swarmRoutes(app: FastifyInstance, { environments, templates, variables }: Services): void {
  // Before in-flight requests are waited for: running stack deploys of every environment end.
  app.addHook('preClose', async () => {
    await Promise.all(environments.built().map((env) => env.swarm.stacks.shutdown()));
  });

  route(app, swarmApi.info, (req) => req.scope.swarm.cluster.info());
  route(app, swarmApi.nodes, (req) => req.scope.swarm.cluster.nodes());
  route(app, swarmApi.updateNode, (req) => req.scope.swarm.cluster.updateNode(req.params.id, req.body));

  route(app, swarmApi.services, (req) => req.scope.swarm.services.list());
  route(app, swarmApi.service, (req) => req.scope.swarm.services.get(req.params.id));
  route(app, swarmApi.createService, (req) => req.scope.swarm.services.create(req.body, requirePrincipal(req)));
  route(app, swarmApi.updateService, (req) => {
    const { version, ...form } = req.body;
    return req.scope.swarm.services.update(req.params.id, version, form, requirePrincipal(req));
  });
  route(app, swarmApi.rollbackService, (req) => req.scope.swarm.services.rollback(req.params.id));
  route(app, swarmApi.removeService, (req) => req.scope.swarm.services.remove(req.params.id));
  route(app, swarmApi.tasks, (req) => req.scope.swarm.services.tasks(req.params.id));
  route(app, swarmApi.logs, async (req, reply) => {
    const follow = await req.scope.swarm.services.openLogs(req.params.id, parseLogRange(req.query, LOG_TAIL_LINES));
    follow(openSse(req, reply));
    return reply;
  });

  route(app, swarmApi.stacks, (req) => req.scope.swarm.stacks.list());
  route(app, swarmApi.stack, async (req) =>
    envShownTo(req, await req.scope.swarm.stacks.get(req.params.name), maskStackEnv),
  );
  route(app, swarmApi.deployStack, (req) =>
    req.scope.swarm.stacks.deploy(req.body.name, req.body.content, 'create', requirePrincipal(req)),
  );
  route(app, swarmApi.redeployStack, (req) =>
    req.scope.swarm.stacks.deploy(req.params.name, req.body.content, 'redeploy', requirePrincipal(req)),
  );
  route(app, swarmApi.stackFromTemplate, (req) =>
    templates.saveStack(req.body.item_id, req.body.env, variables.substituter(), (content) =>
      req.scope.swarm.stacks.save(req.body.name, content, requirePrincipal(req)),
    ),
  );
  route(app, swarmApi.stackStream, (req, reply) =>
    streamActivity(req, reply, req.scope.swarm.stacks.activity, req.params.name),
  );
  route(app, swarmApi.removeStack, (req) => req.scope.swarm.stacks.remove(req.params.name));

  route(app, swarmApi.configs, (req) => req.scope.swarm.configs.list());
  route(app, swarmApi.createConfig, (req) => req.scope.swarm.configs.create(req.body));
  route(app, swarmApi.removeConfig, (req) => req.scope.swarm.configs.remove(req.params.id));
  route(app, swarmApi.secrets, (req) => req.scope.swarm.secrets.list());
  route(app, swarmApi.createSecret, (req) => req.scope.swarm.secrets.create(req.body));
  route(app, swarmApi.removeSecret, (req) => req.scope.swarm.secrets.remove(req.params.id));
}
