import { z } from 'zod';

/**
 * Every machine `code` Berth answers with. The keys are the ergonomic names (`ErrorCode.notFound`),
 * the values the strings on the wire; the server maps each to its HTTP status in one table.
 */
export const ErrorCodeSchema = z.enum({
  validation: 'validation_error',
  unauthorized: 'unauthorized',
  csrf: 'csrf_failed',
  forbidden: 'forbidden',
  notFound: 'not_found',
  conflict: 'conflict',
  tooMany: 'too_many_requests',
  dockerUnavailable: 'docker_unavailable',
  engineTimeout: 'engine_timeout',
  engine: 'engine_error',
  compose: 'compose_failed',
  authDisabled: 'auth_disabled',
  internal: 'internal_error',
  payloadTooLarge: 'payload_too_large',
  hostNotAllowed: 'host_not_allowed',
  reauthFailed: 'reauth_failed',
  portInUse: 'port_in_use',
  imagePullFailed: 'image_pull_failed',
  restoreFailed: 'restore_failed',
  blockedAddress: 'blocked_address',
  upstreamTimeout: 'upstream_timeout',
  upstreamError: 'upstream_error',
  catalogueTooLarge: 'catalogue_too_large',
  invalidCatalogue: 'invalid_catalogue',
  forbiddenKey: 'forbidden_key',
  invalidJson: 'invalid_json',
  invalidSettingsFile: 'invalid_settings_file',
  updaterMissing: 'updater_missing',
  notInContainer: 'not_in_container',
  upToDate: 'up_to_date',
  notInSwarm: 'not_in_swarm',
  environmentUnreachable: 'environment_unreachable',
  policyDenied: 'policy_denied',
  shuttingDown: 'shutting_down',
  /** The disk holding DATA_DIR is full (SQLITE_FULL, ENOSPC, EDQUOT): HTTP 507. */
  insufficientStorage: 'insufficient_storage',
  /** Another process holds berth.db's write lock: HTTP 503, try again shortly. */
  databaseBusy: 'database_busy',
  /** The compose CLI did not answer its probe yet (slow host): calls that need it answer 503 until it does. */
  composeUnknown: 'compose_unknown',
});
export type ErrorCode = z.infer<typeof ErrorCodeSchema>;
/** The members by name: `ErrorCode.notFound === 'not_found'`. */
export const ErrorCode = ErrorCodeSchema.enum;

/** Every error Berth answers with: a human `detail` (shown as '{statusText}: {detail}') and a machine `code`. */
export const ApiError = z.object({
  detail: z.string(),
  code: ErrorCodeSchema,
  fields: z
    .array(
      z.object({
        field: z.string(),
        message: z.string(),
        rule: z.string().optional(),
        line: z.number().optional(),
        column: z.number().optional(),
      }),
    )
    .optional(),
});
export type ApiError = z.infer<typeof ApiError>;
