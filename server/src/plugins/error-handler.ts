import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { ErrorCode, type ApiError } from '@berth/contract';
import { AppError, DatabaseBusyError, InsufficientStorageError, TooManyRequestsError } from '../errors';
import { isDatabaseBusy, isStorageFull } from '../services/storage/storage-status';

function fieldName(instancePath: string, context: string): string {
  const path = instancePath.replace(/^\//, '').replace(/\//g, '.');
  return path || context;
}

/** Where Berth writes; a full disk there is named in the answer. */
interface Storage {
  dataDir: string;
  writeFailed(err: unknown): void;
  readonly detail: string;
}

/**
 * Every error leaves as JSON `{detail, code}`; a 5xx never carries internal text. A write that
 * failed for lack of room (SQLite's SQLITE_FULL, the file system's ENOSPC or EDQUOT) answers 507
 * naming DATA_DIR, and SQLite's lock held by another process answers 503: neither is a bug.
 */
export function registerErrorHandler(app: FastifyInstance, storage?: Storage): void {
  app.setErrorHandler((thrown: FastifyError, req, reply) => {
    let err = thrown;
    if (storage && isStorageFull(err)) {
      storage.writeFailed(err);
      req.log.warn({ code: err.code }, 'a write failed: the disk holding DATA_DIR is full');
      err = new InsufficientStorageError(storage.detail) as unknown as FastifyError;
    } else if (isDatabaseBusy(err)) {
      req.log.warn({ code: err.code }, 'the database is locked by another process');
      err = new DatabaseBusyError() as unknown as FastifyError;
    }
    if (err instanceof AppError) {
      if (err instanceof TooManyRequestsError) reply.header('Retry-After', String(err.retryAfterSeconds));
      if (err instanceof DatabaseBusyError) reply.header('Retry-After', '2');
      // One `msg` per line: the reason goes in the message itself, never in a second `msg` key.
      if (err.statusCode >= 500) req.log.warn({ code: err.code }, `request failed: ${err.message}`);
      const body: ApiError = { detail: err.message, code: err.code, ...(err.fields ? { fields: err.fields } : {}) };
      return reply.code(err.statusCode).send(body);
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const fields = err.validation.map((v) => {
        const keys = v.keyword === 'unrecognized_keys' ? ((v.params as { keys?: string[] }).keys ?? []) : [];
        const base = fieldName(v.instancePath, err.validationContext ?? 'body');
        const field = keys.length
          ? keys.map((k) => (base === (err.validationContext ?? 'body') ? k : `${base}.${k}`)).join(', ')
          : base;
        return { field, message: keys.length ? `Unknown field: ${keys.join(', ')}` : (v.message ?? 'Invalid value') };
      });
      const detail = fields.map((f) => `${f.field}: ${f.message}`).join('; ');
      return reply.code(400).send({ detail, code: ErrorCode.validation, fields } satisfies ApiError);
    }
    const status = err.statusCode ?? 500;
    if (status < 500) {
      const detail =
        err.code === 'FST_ERR_CTP_BODY_TOO_LARGE'
          ? 'The request body is too large.'
          : err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE'
            ? 'Unsupported content type; send JSON.'
            : err.code === 'FST_ERR_CTP_EMPTY_JSON_BODY'
              ? 'The request body is empty; send a JSON object.'
              : err.message || 'Bad request';
      const code = status === 413 ? ErrorCode.payloadTooLarge : ErrorCode.validation;
      return reply.code(status).send({ detail, code } satisfies ApiError);
    }
    req.log.error({ err }, 'unhandled error');
    return reply.code(500).send({
      detail: 'Internal server error. The server log has the details.',
      code: ErrorCode.internal,
    } satisfies ApiError);
  });

  app.setNotFoundHandler((req, reply) => {
    reply
      .code(404)
      .send({ detail: `No route ${req.method} ${req.url.split('?')[0]}`, code: ErrorCode.notFound } satisfies ApiError);
  });
}
