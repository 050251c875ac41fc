import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fastifyMultipart from '@fastify/multipart';
import {
  BuildImageOptions,
  IMAGE_UPLOAD_MAX_BYTES,
  imageBuildApi,
  type BuildImageOptions as Options,
} from '@berth/contract';
import { route } from '../lib/route';
import { answerStreamed, requestSignal } from '../lib/streamed-answer';
import { AppError, PayloadTooLargeError, ValidationError } from '../errors';
import { requirePrincipal } from '../plugins/auth';

/** The options as JSON text (a multipart field, or the parsed JSON body): a 400 naming each bad field. */
function parseOptions(value: unknown): Options {
  let data = value;
  if (typeof value === 'string') {
    try {
      data = JSON.parse(value);
    } catch {
      throw new ValidationError('The field "options" is not JSON.', [{ field: 'options', message: 'Not JSON.' }]);
    }
  }
  const parsed = BuildImageOptions.safeParse(data ?? {});
  if (parsed.success) return parsed.data;
  const fields = parsed.error.issues.map((i) => ({ field: i.path.join('.') || 'options', message: i.message }));
  throw new ValidationError(fields.map((f) => `${f.field}: ${f.message}`).join(' '), fields);
}

const MULTIPART_HINT = 'Send multipart/form-data with the field "options" (JSON) first, then the file "context".';

/** A build's options and uploaded context: the field `options` first, then the file `context` (streamed, not read here). */
async function readBuildRequest(req: FastifyRequest): Promise<{ options: Options; context?: Readable }> {
  if (!req.isMultipart()) return { options: parseOptions(req.body) };
  const parts = req.parts()[Symbol.asyncIterator]();
  let options: Options | null = null;
  try {
    for (;;) {
      const next = await parts.next();
      if (next.done) break;
      const part = next.value;
      if (part.type === 'field') {
        if (part.fieldname !== 'options')
          throw new ValidationError(`Unknown field "${part.fieldname}". ${MULTIPART_HINT}`);
        options = parseOptions(part.value);
        continue;
      }
      if (part.fieldname !== 'context' || !options) throw new ValidationError(MULTIPART_HINT);
      // The rest of the body is this file: handed on as it arrives.
      return { options, context: part.file };
    }
  } catch (err) {
    if (err instanceof AppError) throw err;
    const code = (err as { code?: string }).code;
    if (code === 'FST_PARTS_LIMIT' || code === 'FST_FILES_LIMIT' || code === 'FST_FIELDS_LIMIT')
      throw new PayloadTooLargeError(MULTIPART_HINT);
    throw new ValidationError(`The upload is not valid multipart/form-data. ${MULTIPART_HINT}`);
  }
  if (!options) throw new ValidationError(MULTIPART_HINT, [{ field: 'options', message: 'Required.' }]);
  return { options };
}

/**
 * Multipart for the environment routes (the build's context upload): one field, one file
 * streamed through, capped at the upload limit.
 */
export async function imageUploadParsers(instance: FastifyInstance): Promise<void> {
  await instance.register(fastifyMultipart, {
    limits: { fileSize: IMAGE_UPLOAD_MAX_BYTES, files: 1, parts: 2, fields: 1, fieldSize: 1024 * 1024 },
  });
}

/** Build, tag, push, export and load images. */
export function imageTransferRoutes(app: FastifyInstance): void {
  route(app, imageBuildApi.build, async (req, reply) => {
    const actor = requirePrincipal(req);
    const { options, context } = await readBuildRequest(req);
    const transfer = req.scope.imageTransfer;
    await transfer.checkBuild(actor, options, Boolean(context));
    return answerStreamed(req, reply, 'build', (emit, signal) =>
      transfer.build(actor, { options, context }, (text) => emit({ text }, 'output'), signal),
    );
  });
  route(app, imageBuildApi.tag, async (req) =>
    req.scope.images.get(await req.scope.imageTransfer.tag(req.params.id, req.body.repo, req.body.tag)),
  );
  route(app, imageBuildApi.push, (req, reply) =>
    answerStreamed(req, reply, 'push', (emit, signal) =>
      req.scope.imageTransfer.push(req.params.id, req.body.tag, (p) => emit(p, 'progress'), signal),
    ),
  );
  route(app, imageBuildApi.export, async (req, reply) => {
    const { filename, stream } = await req.scope.imageTransfer.export([req.params.id], requestSignal(reply));
    return reply
      .type('application/x-tar')
      .header('Content-Disposition', attachment(filename))
      .send(stream as Readable);
  });
  route(app, imageBuildApi.exportMany, async (req, reply) => {
    const { filename, stream } = await req.scope.imageTransfer.export(req.query.ids, requestSignal(reply));
    return reply
      .type('application/x-tar')
      .header('Content-Disposition', attachment(filename))
      .send(stream as Readable);
  });
  route(app, imageBuildApi.load, async (req, reply) => {
    const body = req.body as NodeJS.ReadableStream | undefined;
    if (typeof body?.pipe !== 'function')
      throw new ValidationError('Send the .tar as the request body with Content-Type: application/octet-stream.');
    const images = req.scope.images;
    return answerStreamed(req, reply, 'load', async (emit, signal) => {
      const loaded = await req.scope.imageTransfer.load(body, (p) => emit(p, 'progress'), signal);
      return { loaded, images: await images.list() };
    });
  });
}

const attachment = (filename: string) => `attachment; filename="${filename.replace(/["\\\r\n]/g, '_')}"`;
