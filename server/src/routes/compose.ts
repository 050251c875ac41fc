import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ActionStreamEvent, logsApi, projectApi } from '@berth/contract';
import type { EngineScope, Services } from '../app-services';
import { openSse } from '../lib/sse';
import { route } from '../lib/route';
import { envShownTo, requireReauth } from '../plugins/auth';
import { maskProjectDetailEnv, maskProjectsEnv } from '../services/auth/env-visibility';
import { convertDockerRun } from '../services/projects/run-to-compose';
import { sendAttachment } from '../lib/attachment';

export function composeRoutes(app: FastifyInstance, { scope, environments, templates, variables }: Services): void {
  app.addHook('onReady', () => environments.local.projects.sweepCheckFiles());
  // Before in-flight requests are waited for: running compose commands of every environment end.
  app.addHook('preClose', async () => {
    await Promise.all(environments.built().map((env) => env.projects.shutdown()));
  });

  route(app, projectApi.list, async (req) => envShownTo(req, await scope(req).projects.list(), maskProjectsEnv));
  route(app, projectApi.get, async (req) =>
    envShownTo(req, await scope(req).projects.get(req.params.name), maskProjectDetailEnv),
  );
  route(app, projectApi.create, (req) => scope(req).projects.write(req.body.name, req.body.content, 'create'));
  route(app, projectApi.adopt, (req) => scope(req).projects.adopt(req.params.name));
  route(app, projectApi.plan, (req) => scope(req).projectPlan.plan(req.params.name));
  route(app, projectApi.env, (req) => scope(req).projectEnv.read(req.params.name));
  route(app, projectApi.writeEnv, (req) => scope(req).projectEnv.write(req.params.name, req.body.content));
  route(app, projectApi.revealEnv, async (req) => {
    await requireReauth(req, req.body.current_password);
    return scope(req).projectEnv.read(req.params.name, true);
  });
  route(app, projectApi.convertRun, (req) => convertDockerRun(req.body.command));
  route(app, projectApi.fromTemplate, async (req) => {
    const content = await templates.stackFile(req.body.item_id, req.body.env, variables.substituter());
    return scope(req).projects.write(req.body.name, content, 'create');
  });
  route(app, projectApi.edit, (req) => scope(req).projects.edit(req.params.name, req.body));
  route(app, projectApi.stream, async (req, reply) => {
    const { projects } = scope(req);
    await projects.resolveExisting(req.params.name);
    return streamActivity(req, reply, projects.activity, req.params.name);
  });
  route(app, projectApi.action, (req) => scope(req).projectActions.run(req.params.name, req.params.action, null));
  route(app, projectApi.serviceAction, (req) =>
    scope(req).projectActions.run(req.params.project, req.params.action, req.params.service),
  );
  route(app, projectApi.batch, (req) => scope(req).batch.projects(req.body.action, req.body.names));
  route(app, logsApi.project, async (req, reply) => {
    const { projectLogs } = scope(req);
    const containers = await projectLogs.containers(req.params.name);
    projectLogs.stream(req.params.name, containers, openSse(req, reply), req.query);
    return reply;
  });
  route(app, logsApi.projectDownload, async (req, reply) => {
    const { filename, body } = await scope(req).projectLogs.download(req.params.name, req.query);
    return sendAttachment(reply, filename, body);
  });
  route(app, projectApi.support, async (req, reply) => {
    const { filename, zip } = await scope(req).projectActions.support(req.params.name);
    return reply.type('application/zip').header('Content-Disposition', `attachment; filename="${filename}"`).send(zip);
  });
}

/** Replays the running (or last) action's output, then follows every action of the project (or stack) until the client goes. */
export function streamActivity(
  req: FastifyRequest,
  reply: FastifyReply,
  activity: EngineScope['projects']['activity'],
  name: string,
): FastifyReply {
  const sse = openSse(req, reply);
  // One queue so events keep their order while send() waits for a slow client.
  let queue = sse.send(activity.snapshot(name), ActionStreamEvent.state);
  const unsubscribe = activity.subscribe(name, (event) => {
    queue = queue.then(() => sse.send(event.data, event.type));
  });
  sse.signal.addEventListener('abort', unsubscribe, { once: true });
  return reply;
}
