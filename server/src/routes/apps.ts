import type { FastifyInstance, FastifyReply } from 'fastify';
import { appsApi } from '@berth/contract';
import type { Services } from '../app-services';
import { route } from '../lib/route';
import { openSse } from '../lib/sse';

/**
 * App lists are built by typed code (appFromListEntry) from one engine call; re-validating
 * hundreds of loose engine objects on the way out would cost more than the rest of the request,
 * so list responses are serialized directly.
 */
const plainJson = (reply: FastifyReply) => reply.type('application/json; charset=utf-8').serializer(JSON.stringify);

export function appsRoutes(app: FastifyInstance, { apps, appUpdates: updates, appStreams: live }: Services): void {
  route(app, appsApi.list, (_req, reply) => {
    plainJson(reply);
    return apps.list();
  });
  // A static path: it wins over /api/apps/{name}, so an app literally named "stats" is read by ID.
  route(app, appsApi.dashboardStats, (req, reply) => {
    live.dashboard(openSse(req, reply));
    return reply;
  });
  route(app, appsApi.get, (req) => apps.get(req.params.name));
  route(app, appsApi.processes, (req) => apps.processes(req.params.name));
  route(app, appsApi.action, (req, reply) => {
    plainJson(reply);
    return apps.action(req.params.name, req.params.action);
  });
  route(app, appsApi.support, async (req, reply) => {
    const bundle = await apps.supportBundle(req.params.name);
    return reply.type('application/zip').header('Content-Disposition', `attachment; filename="${bundle.filename}"`).send(bundle.zip);
  });
  route(app, appsApi.checkUpdate, (req) => updates.check(req.params.name));
  route(app, appsApi.update, (req, reply) => {
    plainJson(reply);
    return updates.update(req.params.name);
  });
  // Streams look the app up first, so an unknown app is a plain 404, not an empty stream.
  route(app, appsApi.logs, async (req, reply) => {
    const target = await apps.inspect(req.params.name);
    live.logs(target, openSse(req, reply));
    return reply;
  });
  route(app, appsApi.stats, async (req, reply) => {
    const target = await apps.inspect(req.params.name);
    live.stats(target, openSse(req, reply));
    return reply;
  });
}
