import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { appFilesApi } from '@berth/contract';
import { ValidationError } from '../errors';
import { route } from '../lib/route';
import { requirePrincipal } from '../plugins/auth';

/** Ends with the connection: an engine stream or upload stops when the client goes before its answer. */
function requestSignal(reply: FastifyReply): AbortSignal {
  const abort = new AbortController();
  reply.raw.on('close', () => {
    if (!reply.raw.writableFinished) abort.abort();
  });
  return abort.signal;
}

/** Files inside an app's container. */
export function appFilesRoutes(app: FastifyInstance): void {
  // An upload's body is the file itself, handed on as a stream (never buffered whole).
  app.addContentTypeParser('application/octet-stream', (_req, payload, done) => done(null, payload));

  route(app, appFilesApi.list, (req) => req.scope.appFiles.list(req.params.name, req.query.path));
  route(app, appFilesApi.download, async (req, reply) => {
    const { filename, stream } = await req.scope.appFiles.download(
      req.params.name,
      req.query.path,
      requestSignal(reply),
    );
    return reply
      .type('application/x-tar')
      .header('Content-Disposition', `attachment; filename="${filename.replace(/["\\\r\n]/g, '_')}"`)
      .send(stream as Readable);
  });
  route(app, appFilesApi.read, (req) => req.scope.appFiles.read(req.params.name, req.query.path));
  route(app, appFilesApi.write, (req) =>
    req.scope.appFiles.write(requirePrincipal(req), req.params.name, req.query.path, req.body.content),
  );
  route(app, appFilesApi.upload, (req, reply) => {
    const size = Number(req.headers['content-length']);
    if (!req.headers['content-length'] || !Number.isSafeInteger(size))
      throw new ValidationError('Send the file as the request body with its Content-Length.');
    const body = req.body as unknown as NodeJS.ReadableStream | undefined;
    if (typeof body?.pipe !== 'function')
      throw new ValidationError('Send the file as the request body with Content-Type: application/octet-stream.');
    return req.scope.appFiles.upload(
      requirePrincipal(req),
      req.params.name,
      req.query.path,
      req.query.name,
      body,
      size,
      requestSignal(reply),
    );
  });
  route(app, appFilesApi.remove, (req) =>
    req.scope.appFiles.remove(requirePrincipal(req), req.params.name, req.query.path),
  );
  route(app, appFilesApi.mkdir, (req) =>
    req.scope.appFiles.mkdir(requirePrincipal(req), req.params.name, req.body.path),
  );
}
