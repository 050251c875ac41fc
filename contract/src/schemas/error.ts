import { z } from 'zod';

/** Every error Berth answers with: a human `detail` (shown as '{statusText}: {detail}') and a machine `code`. */
export const ApiError = z.object({
  detail: z.string(),
  code: z.string(),
  fields: z.array(z.object({ field: z.string(), message: z.string() })).optional(),
});
export type ApiError = z.infer<typeof ApiError>;

export const ErrorCode = {
  validation: 'validation_error',
  unauthorized: 'unauthorized',
  csrf: 'csrf_failed',
  forbidden: 'forbidden',
  notFound: 'not_found',
  conflict: 'conflict',
  tooMany: 'too_many_requests',
  dockerUnavailable: 'docker_unavailable',
  engine: 'engine_error',
  compose: 'compose_failed',
  authDisabled: 'auth_disabled',
  internal: 'internal_error',
  payloadTooLarge: 'payload_too_large',
  hostNotAllowed: 'host_not_allowed',
  reauthFailed: 'reauth_failed',
} as const;
