import type { FastifyInstance, FastifyRequest } from 'fastify';
import fastifyMultipart from '@fastify/multipart';
import { SETTINGS_FILE_MAX_BYTES, settingsApi } from '@berth/contract';
import { route } from '../lib/route';
import type { Services } from '../app-services';
import { AppError, ValidationError } from '../errors';

const MAX_MIB = SETTINGS_FILE_MAX_BYTES / 1024 / 1024;

/** The uploaded settings file (field `upload`), or null when the request has none. */
async function uploadedFile(req: FastifyRequest): Promise<Buffer | null> {
  if (!req.isMultipart()) throw new ValidationError('Send the settings file as multipart/form-data in the field "upload".', [{ field: 'upload', message: 'Required.' }]);
  try {
    for await (const part of req.parts()) {
      if (part.type === 'file' && part.fieldname === 'upload') return await part.toBuffer();
      // Any other part is read to its end and ignored.
      if (part.type === 'file') await part.toBuffer();
    }
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError(413, 'payload_too_large', `The settings file is larger than ${MAX_MIB} MiB.`);
    if (code === 'FST_PARTS_LIMIT' || code === 'FST_FILES_LIMIT' || code === 'FST_FIELDS_LIMIT') throw new AppError(413, 'payload_too_large', 'Send one file in the field "upload", nothing else.');
    throw err;
  }
  return null;
}

export function settingsRoutes(app: FastifyInstance, { settings, selfUpdate, serverInfo }: Services): void {
  route(app, settingsApi.info, () => serverInfo.info());
  route(app, settingsApi.export, (_req, reply) => {
    reply.header('Content-Disposition', 'attachment; filename="berth-settings.json"').header('Cache-Control', 'no-store');
    return settings.export();
  });
  // Multipart is parsed only for the import route, with limits that fit one settings file.
  void app.register(async (scope) => {
    await scope.register(fastifyMultipart, { limits: { fileSize: SETTINGS_FILE_MAX_BYTES, files: 2, parts: 4, fields: 2, fieldSize: 1024 } });
    route(scope, settingsApi.import, async (req) => settings.import(await uploadedFile(req)));
  });
  route(app, settingsApi.checkUpdate, () => selfUpdate.check());
  route(app, settingsApi.update, () => selfUpdate.start());
}
