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

/** A state change from another site (Origin / Sec-Fetch-Site), or without the CSRF token while auth is off. */
export class CrossSiteError extends AppError {
  constructor(detail: string) {
    super(403, ErrorCode.csrf, detail);
  }
}

/** The Host header names a server Berth does not serve (DNS rebinding); see ALLOWED_HOSTS. */
export class HostNotAllowedError extends AppError {
  constructor(host: string) {
    super(421, ErrorCode.hostNotAllowed, `This server does not answer to the host name ${JSON.stringify(host.slice(0, 100))}. Add it to ALLOWED_HOSTS if it is yours.`);
  }
}

/** A sensitive change needs the current password, and it was missing or wrong. */
export class ReauthFailedError extends AppError {
  constructor(detail: string) {
    super(403, ErrorCode.reauthFailed, detail);
  }
}

export class ForbiddenError extends AppError {
  constructor(detail: string) {
    super(403, ErrorCode.forbidden, detail);
  }
}

export class PayloadTooLargeError extends AppError {
  constructor(detail: string) {
    super(413, ErrorCode.payloadTooLarge, detail);
  }
}
