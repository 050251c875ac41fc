import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { appFilesApi, volumeFilesApi } from '@berth/contract';
import type { EngineScope } from '../app-services';
import { ValidationError } from '../errors';
import { route } from '../lib/route';
import { requirePrincipal } from '../plugins/auth';
import type { AppFilesService } from '../services/files/app-files';

/** Ends with the connection: an engine stream or upload stops when the client goes before its answer. */
function requestSignal(reply: FastifyReply): AbortSignal {
  const abort = new AbortController();
  reply.raw.on('close', () => {
    if (!reply.raw.writableFinished) abort.abort();
  });
  return abort.signal;
}

/** What both file services answer (an app's container, a volume), each call naming its app or volume. */
type Files = Pick<AppFilesService, 'list' | 'download' | 'read' | 'write' | 'upload' | 'remove' | 'mkdir'>;

/** The seven file routes over one service. */
function register(app: FastifyInstance, api: typeof appFilesApi, files: (scope: EngineScope) => Files): void {
  route(app, api.list, (req) => files(req.scope).list(requirePrincipal(req), req.params.name, req.query.path));
  route(app, api.download, async (req, reply) => {
    const { filename, stream } = await files(req.scope).download(
      requirePrincipal(req),
      req.params.name,
      req.query.path,
      requestSignal(reply),
    );
    return reply
      .type('application/x-tar')
      .header('Content-Disposition', `attachment; filename="${filename.replace(/["\\\r\n]/g, '_')}"`)
      .send(stream as Readable);
  });
  route(app, api.read, (req) => files(req.scope).read(requirePrincipal(req), req.params.name, req.query.path));
  route(app, api.write, (req) =>
    files(req.scope).write(requirePrincipal(req), req.params.name, req.query.path, req.body.content),
  );
  route(app, api.upload, (req, reply) => {
    const size = Number(req.headers['content-length']);
    if (!req.headers['content-length'] || !Number.isSafeInteger(size))
      throw new ValidationError('Send the file as the request body with its Content-Length.');
    const body = req.body as unknown as NodeJS.ReadableStream | undefined;
    if (typeof body?.pipe !== 'function')
      throw new ValidationError('Send the file as the request body with Content-Type: application/octet-stream.');
    return files(req.scope).upload(
      requirePrincipal(req),
      req.params.name,
      req.query.path,
      req.query.name,
      body,
      size,
      requestSignal(reply),
    );
  });
  route(app, api.remove, (req) => files(req.scope).remove(requirePrincipal(req), req.params.name, req.query.path));
  route(app, api.mkdir, (req) => files(req.scope).mkdir(requirePrincipal(req), req.params.name, req.body.path));
}

/** Files inside an app's container and inside a volume. */
export function fileRoutes(app: FastifyInstance): void {
  // An upload's body is the file itself, handed on as a stream (never buffered whole).
  app.addContentTypeParser('application/octet-stream', (_req, payload, done) => done(null, payload));
  register(app, appFilesApi, (scope) => scope.appFiles);
  // Same shapes, a volume's name instead of an app's (each route keeps its own schemas at run time).
  register(app, volumeFilesApi as unknown as typeof appFilesApi, (scope) => scope.volumeFiles);
}
