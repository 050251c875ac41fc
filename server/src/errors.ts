import { ErrorCode, type OidcError } from '@berth/contract';

type Field = { field: string; message: string; rule?: string; line?: number; column?: number };

/** The HTTP status each machine code answers with (EngineError and ComposeFailedError may pass the engine's or CLI's own). */
export const ERROR_STATUS = {
  validation_error: 400,
  unauthorized: 401,
  csrf_failed: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  too_many_requests: 429,
  docker_unavailable: 503,
  engine_timeout: 504,
  engine_error: 502,
  compose_failed: 500,
  auth_disabled: 400,
  internal_error: 500,
  payload_too_large: 413,
  port_in_use: 409,
  image_pull_failed: 502,
  restore_failed: 500,
  blocked_address: 400,
  upstream_timeout: 504,
  upstream_error: 502,
  catalogue_too_large: 422,
  invalid_catalogue: 422,
  forbidden_key: 400,
  invalid_json: 400,
  invalid_settings_file: 422,
  updater_missing: 500,
  not_in_container: 400,
  up_to_date: 409,
  host_not_allowed: 421,
  reauth_failed: 403,
  not_in_swarm: 409,
  environment_unreachable: 502,
  policy_denied: 403,
  shutting_down: 503,
  insufficient_storage: 507,
  database_busy: 503,
  compose_unknown: 503,
} as const satisfies Record<ErrorCode, number>;

/** An error meant for the client: its message is the human `detail`, safe to show. Throw a named subclass. */
export class AppError extends Error {
  public readonly statusCode: number;

  protected constructor(
    public readonly code: ErrorCode,
    detail: string,
    opts: { fields?: Field[]; status?: number } = {},
  ) {
    super(detail);
    this.statusCode = opts.status ?? ERROR_STATUS[code];
    this.fields = opts.fields;
  }

  public readonly fields?: Field[];

  /** The same failure (code and status) told with another detail. */
  withDetail(detail: string): AppError {
    return new RephrasedError(this, detail);
  }
}

class RephrasedError extends AppError {
  constructor(original: AppError, detail: string) {
    super(original.code, detail, { fields: original.fields, status: original.statusCode });
  }
}

export class ValidationError extends AppError {
  constructor(detail: string, fields?: Field[]) {
    super(ErrorCode.validation, detail, { fields });
  }
}

export class NotFoundError extends AppError {
  /** `reason` adds the engine's or registry's own words where they say more than "no such". */
  constructor(kind: string, id: string | number, reason?: string) {
    super(ErrorCode.notFound, `No such ${kind}: ${id}${reason ? ` (${reason})` : ''}`);
  }
}

export class ConflictError extends AppError {
  constructor(detail: string) {
    super(ErrorCode.conflict, detail);
  }
}

export class UnauthorizedError extends AppError {
  constructor(
    detail = 'Not signed in.',
    code: typeof ErrorCode.unauthorized | typeof ErrorCode.csrf = ErrorCode.unauthorized,
  ) {
    super(code, detail);
  }
}

/** A refused single sign-on; `reason` is the code the callback hands the login page (never the detail). */
export class OidcSignInError extends UnauthorizedError {
  constructor(
    readonly reason: OidcError,
    detail: string,
  ) {
    super(detail);
  }
}

export class CsrfError extends UnauthorizedError {
  constructor(detail: string) {
    super(detail, ErrorCode.csrf);
  }
}

export class ForbiddenError extends AppError {
  constructor(detail: string) {
    super(ErrorCode.forbidden, detail);
  }
}

/** DATA_DIR's disk is full; the detail names DATA_DIR. */
export class InsufficientStorageError extends AppError {
  constructor(detail: string) {
    super(ErrorCode.insufficientStorage, detail);
  }
}

/** Another process holds the database's write lock past the request path's short wait. */
export class DatabaseBusyError extends AppError {
  constructor() {
    super(
      ErrorCode.databaseBusy,
      'The database is busy: another process holds its write lock. Try again in a few seconds.',
    );
  }
}

export class TooManyRequestsError extends AppError {
  constructor(
    detail: string,
    public readonly retryAfterSeconds: number,
  ) {
    super(ErrorCode.tooMany, detail);
  }
}

export class PayloadTooLargeError extends AppError {
  constructor(detail: string) {
    super(ErrorCode.payloadTooLarge, detail);
  }
}

export class InternalError extends AppError {
  constructor() {
    super(ErrorCode.internal, 'Internal server error. The server log has the details.');
  }
}

/** A call that arrived while Berth shuts down (its connection is closed after the answer). */
export class ShuttingDownError extends AppError {
  constructor() {
    super(ErrorCode.shuttingDown, 'Berth is shutting down; try again in a moment.');
  }
}

export class DockerUnavailableError extends AppError {
  /**
   * `reason` says how the connection failed ("connection refused", "TLS verification failed: …"),
   * for the environment checks that report it.
   */
  constructor(
    detail = 'The Docker engine is not reachable. Berth keeps trying to reconnect.',
    public readonly reason: string | null = null,
  ) {
    super(ErrorCode.dockerUnavailable, detail);
  }
}

export class EngineTimeoutError extends AppError {
  constructor(what: string, seconds: number) {
    super(
      ErrorCode.engineTimeout,
      `The Docker engine did not answer ${what} within ${seconds} s; it may be overloaded or hung. Try again, or check the engine.`,
    );
  }
}

/** The engine refused a request; its explanation is safe to show (it names our own objects). */
export class EngineError extends AppError {
  constructor(statusCode: number, detail: string) {
    super(ErrorCode.engine, detail, { status: statusCode >= 400 && statusCode < 600 ? statusCode : 500 });
  }
}

export class PortInUseError extends AppError {
  constructor(engineMessage: string) {
    super(ErrorCode.portInUse, `A host port is already in use: ${engineMessage}`);
  }
}

export class ImagePullFailedError extends AppError {
  constructor(detail: string, status: number) {
    super(ErrorCode.imagePullFailed, detail, { status });
  }
}

export class RestoreFailedError extends AppError {
  constructor(detail: string) {
    super(ErrorCode.restoreFailed, detail);
  }
}

export class ComposeFailedError extends AppError {
  constructor(detail: string, statusCode = 500) {
    super(ErrorCode.compose, detail, { status: statusCode });
  }
}

/** The compose CLI did not answer in time at start and is being looked for again. */
export class ComposeUnknownError extends AppError {
  constructor() {
    super(
      ErrorCode.composeUnknown,
      'The compose CLI did not answer in time (a slow host?) and is being looked for again; nothing was saved. Try again shortly.',
    );
  }
}

export class BlockedAddressError extends AppError {
  constructor(detail: string, fields?: Field[]) {
    super(ErrorCode.blockedAddress, detail, { fields });
  }
}

export class UpstreamTimeoutError extends AppError {
  constructor(detail: string) {
    super(ErrorCode.upstreamTimeout, detail);
  }
}

export class UpstreamError extends AppError {
  constructor(detail: string) {
    super(ErrorCode.upstreamError, detail);
  }
}

export class CatalogueTooLargeError extends AppError {
  constructor(detail: string) {
    super(ErrorCode.catalogueTooLarge, detail);
  }
}

export class InvalidCatalogueError extends AppError {
  constructor(detail: string) {
    super(ErrorCode.invalidCatalogue, detail);
  }
}

export class ForbiddenKeyError extends AppError {
  constructor(detail: string) {
    super(ErrorCode.forbiddenKey, detail);
  }
}

export class InvalidJsonError extends AppError {
  constructor(detail: string) {
    super(ErrorCode.invalidJson, detail);
  }
}

export class InvalidSettingsFileError extends AppError {
  constructor(detail: string, fields?: Field[]) {
    super(ErrorCode.invalidSettingsFile, detail, { fields });
  }
}

export class UpdaterMissingError extends AppError {
  constructor(detail: string) {
    super(ErrorCode.updaterMissing, detail);
  }
}

export class NotInContainerError extends AppError {
  constructor(detail: string) {
    super(ErrorCode.notInContainer, detail);
  }
}

export class UpToDateError extends AppError {
  constructor(detail: string) {
    super(ErrorCode.upToDate, detail);
  }
}

/** A state change from another site (Origin / Sec-Fetch-Site), or without the CSRF token while auth is off. */
export class CrossSiteError extends AppError {
  constructor(detail: string) {
    super(ErrorCode.csrf, detail, { status: 403 });
  }
}

/** The Host header names a server Berth does not serve (DNS rebinding); see ALLOWED_HOSTS. */
export class HostNotAllowedError extends AppError {
  constructor(host: string) {
    super(
      ErrorCode.hostNotAllowed,
      `This server does not answer to the host name ${JSON.stringify(host.slice(0, 100))}. Add it to ALLOWED_HOSTS if it is yours.`,
    );
  }
}

/** A sensitive change needs the current password, and it was missing or wrong. */
export class ReauthFailedError extends AppError {
  constructor(detail: string) {
    super(ErrorCode.reauthFailed, detail);
  }
}

/** A swarm call on an engine that is not a swarm manager (not in a swarm, or only a worker). */
export class NotInSwarmError extends AppError {
  constructor(
    detail = 'This Docker engine is not part of a swarm; swarm pages need an engine that is a swarm manager (docker swarm init).',
  ) {
    super(ErrorCode.notInSwarm, detail);
  }
}

/** A new or changed environment's engine did not answer; the detail says how the connection failed. */
export class EnvironmentUnreachableError extends AppError {
  constructor(detail: string) {
    super(ErrorCode.environmentUnreachable, detail);
  }
}

/** A request the environment's policy refuses for the acting role (403), naming the rule, the field and where to change it. */
export class PolicyDeniedError extends AppError {
  constructor(detail: string, fields: Field[]) {
    super(ErrorCode.policyDenied, detail, { fields });
  }
}
