import { ApiError, readEvents, type ApiErrorCode } from './api-client';

/**
 * Reads the answer of a long job asked for as `text/event-stream` (an image build, push or load, a restore): each event goes to `onEvent`, the `done`
 * event's data is the answer, an `error` event (or a plain JSON refusal) throws an ApiError.
 */
export async function followJob<T>(
  res: Response,
  what: string,
  onEvent: (event: string, data: unknown) => void,
): Promise<T> {
  if (!res.ok || !(res.headers.get('Content-Type') ?? '').includes('text/event-stream')) {
    if (res.ok) return (await res.json()) as T;
    const body = (await res.json().catch(() => ({}))) as { detail?: string; code?: ApiErrorCode };
    throw new ApiError(res.status, res.statusText, body.detail ?? res.statusText, body.code ?? 'http_error');
  }
  for await (const batch of readEvents(res)) {
    for (const e of batch) {
      if (e.event === 'done') return JSON.parse(e.data) as T;
      if (e.event === 'error') {
        const body = JSON.parse(e.data) as { detail: string; code: ApiErrorCode };
        throw new ApiError(502, `${what} Failed`, body.detail, body.code);
      }
      onEvent(e.event, JSON.parse(e.data));
    }
  }
  throw new ApiError(
    502,
    `${what} Failed`,
    `The server closed the ${what.toLowerCase()} before it finished.`,
    'stream_ended',
  );
}
