import type { FastifyInstance, FastifyReply } from 'fastify';
import { appsApi, logsApi } from '@berth/contract';
import { route } from '../lib/route';
import { openSse } from '../lib/sse';
import { sendAttachment } from '../lib/attachment';
import { envShownTo, requirePrincipal } from '../plugins/auth';
import { maskAppEnv } from '../services/auth/env-visibility';
import { LOG_TAIL_LINES, parseLogRange } from '../services/logs/log-range';

/**
 * App lists are built by typed code (appFromListEntry) from one engine call; re-validating
 * hundreds of loose engine objects on the way out would cost more than the rest of the request,
 * so list responses are serialized directly. A list served again unchanged (the same array from
 * the list cache) keeps its JSON.
 */
const listJson = new WeakMap<object, string>();
function serializeList(payload: unknown): string {
  if (typeof payload !== 'object' || payload === null) return JSON.stringify(payload);
  let json = listJson.get(payload);
  if (json === undefined) listJson.set(payload, (json = JSON.stringify(payload)));
  return json;
}
const plainJson = (reply: FastifyReply) => reply.type('application/json; charset=utf-8').serializer(serializeList);

export function appsRoutes(app: FastifyInstance): void {
  route(app, appsApi.list, (req, reply) => {
    plainJson(reply);
    return req.scope.apps.list();
  });
  // A static path: it wins over /api/apps/{name}, so an app literally named "stats" is read by ID.
  route(app, appsApi.dashboardStats, (req, reply) => {
    // The samples format is not compressed: a flush per sample (50 apps × 10 viewers = 500 a second)
    // cost Berth +8.5 % of a core in `npm run bench` (12.6 % vs 4.1 %). The tick format is one
    // event (one flush) a second per viewer, compressed when the client accepts it.
    const { format } = req.query;
    req.scope.appStreams.dashboard(openSse(req, reply, { compress: format === 'tick' }), format);
    return reply;
  });
  route(app, appsApi.get, async (req) => envShownTo(req, await req.scope.apps.get(req.params.name), maskAppEnv));
  route(app, appsApi.diagnosis, (req) => req.scope.diagnosis.get(req.params.name));
  route(app, appsApi.processes, (req) => req.scope.apps.processes(req.params.name));
  route(app, appsApi.action, (req, reply) => {
    plainJson(reply);
    return req.scope.apps.action(req.params.name, req.params.action);
  });
  // Its own path: /api/apps/actions/{name}/{action} has one segment more, so no app name can shadow it.
  route(app, appsApi.batch, (req, reply) => {
    plainJson(reply);
    return req.scope.batch.apps(req.body.action, req.body.names, requirePrincipal(req).username);
  });
  route(app, appsApi.support, async (req, reply) => {
    const bundle = await req.scope.apps.supportBundle(req.params.name);
    return reply
      .type('application/zip')
      .header('Content-Disposition', `attachment; filename="${bundle.filename}"`)
      .send(bundle.zip);
  });
  route(app, appsApi.checkUpdate, async (req) =>
    envShownTo(req, await req.scope.appUpdates.check(req.params.name), maskAppEnv),
  );
  route(app, appsApi.update, (req, reply) => {
    plainJson(reply);
    return req.scope.appUpdates.update(req.params.name, requirePrincipal(req).username);
  });
  // Streams look the app up first, so an unknown app is a plain 404, not an empty stream.
  route(app, appsApi.logs, async (req, reply) => {
    const env = req.scope;
    const target = await env.apps.inspect(req.params.name);
    const range = parseLogRange(req.query, LOG_TAIL_LINES);
    env.appStreams.logs(target, openSse(req, reply), range);
    return reply;
  });
  route(app, logsApi.appDownload, async (req, reply) => {
    const env = req.scope;
    const { filename, body } = await env.appLogs.download(await env.apps.inspect(req.params.name), req.query);
    return sendAttachment(reply, filename, body);
  });
  route(app, logsApi.appSearch, async (req) => {
    const env = req.scope;
    const user = String(requirePrincipal(req).userId);
    return env.appLogs.search(await env.apps.inspect(req.params.name), req.query, user);
  });
  route(app, appsApi.stats, async (req, reply) => {
    const env = req.scope;
    const target = await env.apps.inspect(req.params.name);
    env.appStreams.stats(target, openSse(req, reply));
    return reply;
  });
  route(app, appsApi.statsHistory, async (req) => {
    const env = req.scope;
    return env.appStreams.history(await env.apps.inspect(req.params.name), req.query.range);
  });
}
