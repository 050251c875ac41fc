import type { FastifyReply, FastifyRequest } from 'fastify';
import { ErrorCode, type ApiError } from '@berth/contract';
import { AppError } from '../errors';
import { openSse } from './sse';

/** Ends with the connection: an engine stream or upload stops when the client goes before its answer. */
export function requestSignal(reply: FastifyReply): AbortSignal {
  const abort = new AbortController();
  reply.raw.on('close', () => {
    if (!reply.raw.writableFinished) abort.abort();
  });
  return abort.signal;
}

export const wantsEventStream = (req: FastifyRequest) => (req.headers.accept ?? '').includes('text/event-stream');

/** What an `error` event of a stream carries: the AppError's words, or a fixed line (the real error goes to the log). */
export function errorEventBody(req: FastifyRequest, err: unknown, what: string): ApiError {
  if (err instanceof AppError) return { detail: err.message, code: err.code };
  req.log.error({ err }, `${what} failed`);
  return { detail: `The ${what} failed; the server log has the details.`, code: ErrorCode.internal };
}

/**
 * Runs a long engine job and answers it: as plain JSON, or, when the client asks for
 * `text/event-stream`, as events (`emit`'s, then `done` with the answer or `error` with
 * {detail, code}). `signal` aborts when the client goes, which cancels the job.
 */
export async function answerStreamed<T>(
  req: FastifyRequest,
  reply: FastifyReply,
  what: string,
  run: (emit: (data: unknown, event: string) => void, signal: AbortSignal) => Promise<T>,
): Promise<T | FastifyReply> {
  if (!wantsEventStream(req)) return run(() => undefined, requestSignal(reply));
  const sse = openSse(req, reply);
  try {
    const result = await run((data, event) => void sse.send(data, event), sse.signal);
    await sse.send(result, 'done');
  } catch (err) {
    await sse.send(errorEventBody(req, err, what), 'error');
  } finally {
    sse.close();
  }
  return reply;
}
