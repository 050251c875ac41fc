import type { FastifyInstance, FastifyRequest } from 'fastify';
import fastifyMultipart from '@fastify/multipart';
import { ReauthBody, SETTINGS_FILE_MAX_BYTES, settingsApi } from '@berth/contract';
import { route } from '../lib/route';
import type { Services } from '../app-services';
import { AppError, PayloadTooLargeError, ValidationError } from '../errors';
import { requireReauth } from '../plugins/auth';

const MAX_MIB = SETTINGS_FILE_MAX_BYTES / 1024 / 1024;

interface ImportUpload {
  /** The settings file (field `upload`), or null when the request has none. */
  file: Buffer | null;
  /** Field `current_password` (re-authentication). */
  currentPassword: string | undefined;
}

/** Reads the whole multipart import; anything malformed is a 4xx, never a 500. */
async function readImportUpload(req: FastifyRequest): Promise<ImportUpload> {
  if (!req.isMultipart())
    throw new ValidationError('Send the settings file as multipart/form-data in the field "upload".', [
      { field: 'upload', message: 'Required.' },
    ]);
  const upload: ImportUpload = { file: null, currentPassword: undefined };
  try {
    for await (const part of req.parts()) {
      if (part.type === 'file') {
        // Any other file part is read to its end and ignored.
        const content = await part.toBuffer();
        if (part.fieldname === 'upload' && upload.file === null) upload.file = content;
      } else if (part.fieldname === 'current_password' && typeof part.value === 'string') {
        upload.currentPassword = part.value;
      }
    }
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE')
      throw new PayloadTooLargeError(`The settings file is larger than ${MAX_MIB} MiB.`);
    if (code === 'FST_PARTS_LIMIT' || code === 'FST_FILES_LIMIT' || code === 'FST_FIELDS_LIMIT')
      throw new PayloadTooLargeError(
        'Send one file in the field "upload" and the field "current_password", nothing else.',
      );
    if (err instanceof AppError) throw err;
    // busboy's own errors (a cut-off body, a missing boundary) are the client's malformed request.
    throw new ValidationError(
      `The upload is not valid multipart/form-data (${err instanceof Error ? err.message : 'unreadable'}). Send the file again.`,
      [{ field: 'upload', message: 'Malformed upload.' }],
    );
  }
  return upload;
}

export function settingsRoutes(app: FastifyInstance, { settings, selfUpdate, serverInfo }: Services): void {
  route(app, settingsApi.info, () => serverInfo.info(), { usesCompose: true });
  route(app, settingsApi.export, (_req, reply) => {
    reply
      .header('Content-Disposition', 'attachment; filename="berth-settings.json"')
      .header('Cache-Control', 'no-store');
    return settings.export();
  });
  // Multipart is parsed only for the import route, with limits that fit one settings file.
  void app.register(async (scope) => {
    await scope.register(fastifyMultipart, {
      limits: { fileSize: SETTINGS_FILE_MAX_BYTES, files: 2, parts: 4, fields: 2, fieldSize: 1024 },
    });
    route(scope, settingsApi.import, async (req) => {
      const { file, currentPassword } = await readImportUpload(req);
      await requireReauth(req, currentPassword);
      return settings.import(file);
    });
  });
  route(app, settingsApi.checkUpdate, async () => (await selfUpdate.check()).updatable);
  route(app, settingsApi.updateStatus, () => selfUpdate.check());
  // Registered without its body schema (Fastify refuses one on the GET alias); checked here instead.
  route(app, { ...settingsApi.update, body: undefined }, async (req) => {
    const body = ReauthBody.safeParse(req.body ?? {});
    if (!body.success)
      throw new ValidationError('Send {"current_password": "…"} as the body.', [
        { field: 'current_password', message: 'Must be a string.' },
      ]);
    await requireReauth(req, body.data.current_password);
    return selfUpdate.start();
  });
}
