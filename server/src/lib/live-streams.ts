import type { FastifyRequest } from 'fastify';

/** One open live stream's place in the server's registry. */
export interface LiveStreamSlot {
  /**
   * Aborted when the stream must end because whoever opened it lost the right to it (demoted,
   * disabled, deleted, sessions ended, password changed, key revoked); `reason` is a sentence for the user.
   */
  readonly revoked: AbortSignal;
  /** Gives the place back when the stream ends; idempotent. */
  release(): void;
}

/**
 * Where live streams (SSE answers, WebSockets) register, so they can be counted and capped and
 * ended when their user's rights change. The server decorates itself with one (see plugins/websocket.ts).
 */
export interface LiveStreamTracker {
  /** Takes a place for a stream `req` opens (before any byte is sent); throws a 429 AppError beyond the caps. */
  open(req: FastifyRequest): LiveStreamSlot;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Absent only in apps built without the registry (unit tests of a helper). */
    liveStreams?: LiveStreamTracker;
  }
}

/** The text of a revoked slot's reason (AbortSignal.reason is whatever was passed to abort). */
export function revokedReason(signal: AbortSignal): string {
  return typeof signal.reason === 'string' ? signal.reason : 'Your access to this stream ended.';
}
