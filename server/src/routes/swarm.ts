import type { FastifyInstance } from 'fastify';
import { swarmApi } from '@berth/contract';
import type { Services } from '../app-services';
import { route } from '../lib/route';
import { envShownTo } from '../plugins/auth';
import { maskStackEnv } from '../services/auth/env-visibility';
import { openSse } from '../lib/sse';
import { LOG_TAIL_LINES, parseLogRange } from '../services/logs/log-range';
import { streamActivity } from './compose';

export function swarmRoutes(app: FastifyInstance, { scope, environments, templates, variables }: Services): void {
  const swarm = (req: { params: unknown }) => scope(req).swarm;
  // Before in-flight requests are waited for: running stack deploys of every environment end.
  app.addHook('preClose', async () => {
    await Promise.all(environments.built().map((env) => env.swarm.stacks.shutdown()));
  });

  route(app, swarmApi.info, (req) => swarm(req).cluster.info());
  route(app, swarmApi.nodes, (req) => swarm(req).cluster.nodes());
  route(app, swarmApi.updateNode, (req) => swarm(req).cluster.updateNode(req.params.id, req.body));

  route(app, swarmApi.services, (req) => swarm(req).services.list());
  route(app, swarmApi.service, (req) => swarm(req).services.get(req.params.id));
  route(app, swarmApi.createService, (req) => swarm(req).services.create(req.body));
  route(app, swarmApi.updateService, (req) => {
    const { version, ...form } = req.body;
    return swarm(req).services.update(req.params.id, version, form);
  });
  route(app, swarmApi.rollbackService, (req) => swarm(req).services.rollback(req.params.id));
  route(app, swarmApi.removeService, (req) => swarm(req).services.remove(req.params.id));
  route(app, swarmApi.tasks, (req) => swarm(req).services.tasks(req.params.id));
  route(app, swarmApi.logs, async (req, reply) => {
    const follow = await swarm(req).services.openLogs(req.params.id, parseLogRange(req.query, LOG_TAIL_LINES));
    follow(openSse(req, reply));
    return reply;
  });

  route(app, swarmApi.stacks, (req) => swarm(req).stacks.list());
  route(app, swarmApi.stack, async (req) =>
    envShownTo(req, await swarm(req).stacks.get(req.params.name), maskStackEnv),
  );
  route(app, swarmApi.deployStack, (req) => swarm(req).stacks.deploy(req.body.name, req.body.content, 'create'));
  route(app, swarmApi.redeployStack, (req) => swarm(req).stacks.deploy(req.params.name, req.body.content, 'redeploy'));
  route(app, swarmApi.stackFromTemplate, async (req) => {
    const content = await templates.stackFile(req.body.item_id, req.body.env, variables.substituter());
    return swarm(req).stacks.save(req.body.name, content);
  });
  route(app, swarmApi.stackStream, (req, reply) =>
    streamActivity(req, reply, swarm(req).stacks.activity, req.params.name),
  );
  route(app, swarmApi.removeStack, (req) => swarm(req).stacks.remove(req.params.name));

  route(app, swarmApi.configs, (req) => swarm(req).configs.list());
  route(app, swarmApi.createConfig, (req) => swarm(req).configs.create(req.body));
  route(app, swarmApi.removeConfig, (req) => swarm(req).configs.remove(req.params.id));
  route(app, swarmApi.secrets, (req) => swarm(req).secrets.list());
  route(app, swarmApi.createSecret, (req) => swarm(req).secrets.create(req.body));
  route(app, swarmApi.removeSecret, (req) => swarm(req).secrets.remove(req.params.id));
}
