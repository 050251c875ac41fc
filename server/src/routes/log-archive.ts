import type { FastifyInstance } from 'fastify';
import { logArchiveApi } from '@berth/contract';
import { route } from '../lib/route';
import { openSse } from '../lib/sse';
import { sendAttachment } from '../lib/attachment';
import { requirePrincipal } from '../plugins/auth';

/** The kept last lines of an app's earlier containers: list, read (as the live stream), search, download. */
export function logArchiveRoutes(app: FastifyInstance): void {
  route(app, logArchiveApi.list, (req) => req.scope.logArchive.list(req.params.name));
  route(app, logArchiveApi.read, async (req, reply) => {
    const kept = await req.scope.logArchive.open(req.params.name, req.params.id, req.query);
    void kept.send(openSse(req, reply));
    return reply;
  });
  route(app, logArchiveApi.search, (req) =>
    req.scope.logArchive.search(req.params.name, req.params.id, req.query, String(requirePrincipal(req).userId)),
  );
  route(app, logArchiveApi.download, async (req, reply) => {
    const { filename, body } = await req.scope.logArchive.download(req.params.name, req.params.id, req.query);
    return sendAttachment(reply, filename, body);
  });
}
