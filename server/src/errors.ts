import { ErrorCode } from '@berth/contract';

/** An error meant for the client: its message is the human `detail`, safe to show. */
export class AppError extends Error {
  constructor(
    public readonly statusCode: number,
    public readonly code: string,
    detail: string,
    public readonly fields?: { field: string; message: string }[],
  ) {
    super(detail);
  }
}

export class ValidationError extends AppError {
  constructor(detail: string, fields?: { field: string; message: string }[]) {
    super(400, ErrorCode.validation, detail, fields);
  }
}

export class NotFoundError extends AppError {
  constructor(kind: string, id: string | number) {
    super(404, ErrorCode.notFound, `No such ${kind}: ${id}`);
  }
}

export class ConflictError extends AppError {
  constructor(detail: string) {
    super(409, ErrorCode.conflict, detail);
  }
}

export class UnauthorizedError extends AppError {
  constructor(detail = 'Not signed in.', code: string = ErrorCode.unauthorized) {
    super(401, code, detail);
  }
}

export class TooManyRequestsError extends AppError {
  constructor(
    detail: string,
    public readonly retryAfterSeconds: number,
  ) {
    super(429, ErrorCode.tooMany, detail);
  }
}

export class DockerUnavailableError extends AppError {
  constructor(detail = 'The Docker engine is not reachable. Berth keeps trying to reconnect.') {
    super(503, ErrorCode.dockerUnavailable, detail);
  }
}

/** The engine refused a request; its explanation is safe to show (it names our own objects). */
export class EngineError extends AppError {
  constructor(statusCode: number, detail: string) {
    super(statusCode >= 400 && statusCode < 600 ? statusCode : 500, ErrorCode.engine, detail);
  }
}

export class ComposeFailedError extends AppError {
  constructor(detail: string, statusCode = 500) {
    super(statusCode, ErrorCode.compose, detail);
  }
}
