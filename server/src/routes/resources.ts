import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { imageApi, roleAllows, networkApi, removeBatchItems, volumeApi } from '@berth/contract';
import { route } from '../lib/route';
import { openSse } from '../lib/sse';
import { errorEventBody, wantsEventStream } from '../lib/streamed-answer';
import { ForbiddenError } from '../errors';
import { envShownTo, requirePrincipal } from '../plugins/auth';
import { maskImageEnv } from '../services/auth/env-visibility';
import type { ImagesService } from '../services/images/images';

/**
 * A pull asked for as `text/event-stream`: progress events while the engine works, then `done`
 * or `error`. The pull is started first so a refusal is still an ordinary JSON error reply.
 */
async function streamPull(
  req: FastifyRequest,
  reply: FastifyReply,
  images: ImagesService,
  reference: string,
): Promise<FastifyReply> {
  const cancel = new AbortController();
  reply.raw.on('close', () => cancel.abort());
  const running = await images.startPull(reference, cancel.signal);
  const sse = openSse(req, reply);
  try {
    await running.follow((p) => void sse.send(p, 'progress'));
    await sse.send(await images.list(), 'done');
  } catch (err) {
    await sse.send(errorEventBody(req, err, 'pull'), 'error');
  } finally {
    sse.close();
  }
  return reply;
}

export function resourceRoutes(app: FastifyInstance): void {
  route(app, imageApi.list, (req) => req.scope.images.list());
  route(app, imageApi.pull, (req, reply) =>
    wantsEventStream(req)
      ? streamPull(req, reply, req.scope.images, req.body.image)
      : req.scope.images.pull(req.body.image),
  );
  route(app, imageApi.get, async (req) => envShownTo(req, await req.scope.images.get(req.params.id), maskImageEnv));
  route(app, imageApi.remove, (req) => req.scope.images.remove(req.params.id));
  // POST only: GET and DELETE /api/resources/images/batch still reach an image named "batch".
  route(app, imageApi.batch, (req) => {
    // Forcing removes images that containers still use: like a prune, only an admin may.
    if (req.body.force && !roleAllows(requirePrincipal(req).role, 'admin'))
      throw new ForbiddenError('Not allowed: forcing the removal of images in use needs the admin role.');
    return req.scope.batch.removeImages(removeBatchItems(req.body), req.body.force ?? false);
  });
  route(app, imageApi.untag, (req) => req.scope.images.untag(req.params.id, req.params.tag));
  route(app, imageApi.repull, (req) => req.scope.images.repull(req.params.id));

  route(app, volumeApi.list, (req) => req.scope.volumes.list());
  route(app, volumeApi.create, (req) => req.scope.volumes.create(req.body.name));
  route(app, volumeApi.batch, (req) => req.scope.batch.removeVolumes(removeBatchItems(req.body)));
  route(app, volumeApi.get, (req) => req.scope.volumes.get(req.params.name));
  route(app, volumeApi.remove, (req) => req.scope.volumes.remove(req.params.name));

  route(app, networkApi.list, (req) => req.scope.networks.list());
  route(app, networkApi.create, (req) => req.scope.networks.create(req.body));
  route(app, networkApi.batch, (req) => req.scope.batch.removeNetworks(removeBatchItems(req.body)));
  route(app, networkApi.get, (req) => req.scope.networks.get(req.params.id));
  route(app, networkApi.remove, (req) => req.scope.networks.remove(req.params.id));
}
