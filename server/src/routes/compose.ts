import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ActionStreamEvent, logsApi, projectApi, type RouteDef } from '@berth/contract';
import type { EngineScope, Services } from '../app-services';
import { openSse } from '../lib/sse';
import { route, type Handler } from '../lib/route';
import { envShownTo, requirePrincipal, requireReauth } from '../plugins/auth';
import { maskProjectDetailEnv, maskProjectsEnv, maskValuesIn } from '../services/auth/env-visibility';
import { convertDockerRun } from '../services/projects/run-to-compose';
import { sendAttachment } from '../lib/attachment';

export function composeRoutes(app: FastifyInstance, { environments, templates, variables }: Services): void {
  /** Every call here may run the compose CLI: each waits for its detection at start. */
  const composeRoute = <T extends RouteDef>(def: T, handler: Handler<T>) =>
    route(app, def, handler, { usesCompose: true });
  environments.local.ctx.afterStart(() => environments.local.projects.sweepCheckFiles());
  // Before in-flight requests are waited for: running compose commands of every environment end.
  app.addHook('preClose', async () => {
    await Promise.all(environments.built().map((env) => env.projects.shutdown()));
  });

  composeRoute(projectApi.list, async (req) => envShownTo(req, await req.scope.projects.list(), maskProjectsEnv));
  composeRoute(projectApi.get, async (req) =>
    envShownTo(req, await req.scope.projects.get(req.params.name), maskProjectDetailEnv),
  );
  composeRoute(projectApi.create, (req) =>
    req.scope.projects.write(req.body.name, req.body.content, 'create', requirePrincipal(req), req.body.env),
  );
  composeRoute(projectApi.adopt, (req) => req.scope.projects.adopt(req.params.name, requirePrincipal(req)));
  // The plan interpolates the .env (image names, paths): a viewer reads it with the .env's values masked.
  composeRoute(projectApi.plan, async (req) => {
    const plan = await req.scope.projectPlan.plan(req.params.name);
    const secrets = await req.scope.projectEnv.values(req.params.name);
    return envShownTo(req, plan, (p) => maskValuesIn(p, secrets));
  });
  composeRoute(projectApi.env, (req) => req.scope.projectEnv.read(req.params.name));
  composeRoute(projectApi.writeEnv, (req) =>
    req.scope.projectEnv.write(req.params.name, req.body.content, requirePrincipal(req)),
  );
  composeRoute(projectApi.revealEnv, async (req) => {
    await requireReauth(req, req.body.current_password);
    return req.scope.projectEnv.read(req.params.name, true);
  });
  composeRoute(projectApi.convertRun, async (req) => {
    const converted = await convertDockerRun(req.body.command);
    await req.scope.projects.judgeText(converted.content, requirePrincipal(req));
    return converted;
  });
  composeRoute(projectApi.fromTemplate, (req) =>
    templates.saveStack(req.body.item_id, req.body.env, variables.substituter(), (content) =>
      req.scope.projects.write(req.body.name, content, 'create', requirePrincipal(req)),
    ),
  );
  composeRoute(projectApi.edit, (req) => req.scope.projects.edit(req.params.name, req.body, requirePrincipal(req)));
  composeRoute(projectApi.stream, async (req, reply) => {
    const { projects, projectEnv } = req.scope;
    const { name } = req.params;
    await projects.resolveExisting(name);
    // CLI output names interpolated images and paths: a viewer's copy has the .env's values masked
    // (read again for each event, so a .env changed while the stream is open is masked too).
    const masked = envShownTo(req, false, () => true);
    const mask = masked
      ? async (data: unknown) => maskValuesIn(data, await projectEnv.values(name).catch(() => []))
      : undefined;
    return streamActivity(req, reply, projects.activity, name, mask);
  });
  composeRoute(projectApi.action, (req) =>
    req.scope.projectActions.run(req.params.name, req.params.action, null, requirePrincipal(req)),
  );
  composeRoute(projectApi.serviceAction, (req) =>
    req.scope.projectActions.run(req.params.project, req.params.action, req.params.service, requirePrincipal(req)),
  );
  composeRoute(projectApi.batch, (req) =>
    req.scope.batch.projects(req.body.action, req.body.names, requirePrincipal(req)),
  );
  composeRoute(logsApi.project, async (req, reply) => {
    const { projectLogs } = req.scope;
    const containers = await projectLogs.containers(req.params.name);
    projectLogs.stream(req.params.name, containers, openSse(req, reply), req.query);
    return reply;
  });
  composeRoute(logsApi.projectDownload, async (req, reply) => {
    const { filename, body } = await req.scope.projectLogs.download(req.params.name, req.query);
    return sendAttachment(reply, filename, body);
  });
  composeRoute(projectApi.support, async (req, reply) => {
    const { filename, zip } = await req.scope.projectActions.support(req.params.name);
    return reply.type('application/zip').header('Content-Disposition', `attachment; filename="${filename}"`).send(zip);
  });
}

/** Replays the running (or last) action's output, then follows every action of the project (or stack) until the client goes. */
export function streamActivity(
  req: FastifyRequest,
  reply: FastifyReply,
  activity: EngineScope['projects']['activity'],
  name: string,
  /** What the caller may not read, taken out of each event (a viewer's copy). */
  mask: (data: unknown) => Promise<unknown> = async (data) => data,
): FastifyReply {
  const sse = openSse(req, reply);
  // One queue so events keep their order while send() waits for a slow client.
  let queue = mask(activity.snapshot(name)).then((data) => sse.send(data, ActionStreamEvent.state));
  const unsubscribe = activity.subscribe(name, (event) => {
    queue = queue.then(async () => sse.send(await mask(event.data), event.type));
  });
  sse.signal.addEventListener('abort', unsubscribe, { once: true });
  return reply;
}
