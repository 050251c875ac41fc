import { imageApi, type ImageSummary, type PullProgress } from '@berth/contract';
import { ApiError, errorCode, readCookie, refreshSession } from '../../../lib/api-client';

interface SseEvent {
  event: string;
  data: string;
}

/** Splits complete `event:`/`data:` blocks off the front of `buffer`; returns them and the rest. */
export function takeSseEvents(buffer: string): { events: SseEvent[]; rest: string } {
  const events: SseEvent[] = [];
  const blocks = buffer.replace(/\r\n/g, '\n').split('\n\n');
  const rest = blocks.pop() ?? '';
  for (const block of blocks) {
    let event = 'message';
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line.startsWith('event:')) event = line.slice(6).trim();
      else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
    }
    if (data.length) events.push({ event, data: data.join('\n') });
  }
  return { events, rest };
}

async function errorOf(res: Response): Promise<ApiError> {
  const text = await res.text();
  try {
    const body = JSON.parse(text) as { detail?: string; code?: string };
    return new ApiError(res.status, res.statusText || `HTTP ${res.status}`, body.detail ?? res.statusText, errorCode(body.code));
  } catch {
    return new ApiError(res.status, res.statusText || `HTTP ${res.status}`, text.trim().slice(0, 200) || res.statusText, 'http_error');
  }
}

function post(image: string, signal?: AbortSignal): Promise<Response> {
  const headers: Record<string, string> = { Accept: 'text/event-stream', 'Content-Type': 'application/json' };
  const csrf = readCookie('csrf_access_token');
  if (csrf) headers['X-CSRF-TOKEN'] = csrf;
  return fetch(imageApi.pull.path, { method: 'POST', headers, body: JSON.stringify({ image }), credentials: 'same-origin', signal });
}

/**
 * Pulls an image with the streamed variant of POST /api/resources/images/ (the API client only
 * speaks JSON): progress events go to `onProgress`, the final image list is returned, and a
 * failure, before or during the pull, throws an ApiError like any other call.
 */
export async function pullWithProgress(image: string, onProgress: (batch: PullProgress[]) => void, signal?: AbortSignal): Promise<ImageSummary[]> {
  let res = await post(image, signal);
  if (res.status === 401) {
    await res.body?.cancel();
    if (!(await refreshSession())) throw new ApiError(401, 'Unauthorized', 'Your session has ended; sign in again.', 'unauthorized');
    res = await post(image, signal);
  }
  if (!res.ok) throw await errorOf(res);
  if (!res.body || !(res.headers.get('Content-Type') ?? '').includes('text/event-stream')) return (await res.json()) as ImageSummary[];

  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    const { events, rest } = takeSseEvents(buffer + value);
    buffer = rest;
    const progress: PullProgress[] = [];
    for (const e of events) {
      if (e.event === 'progress') progress.push(JSON.parse(e.data) as PullProgress);
      else if (e.event === 'done') {
        if (progress.length) onProgress(progress);
        await reader.cancel();
        return JSON.parse(e.data) as ImageSummary[];
      } else if (e.event === 'error') {
        const body = JSON.parse(e.data) as { detail: string; code: string };
        await reader.cancel();
        throw new ApiError(502, 'Pull Failed', body.detail, errorCode(body.code));
      }
    }
    if (progress.length) onProgress(progress);
  }
  throw new ApiError(502, 'Pull Failed', 'The server closed the pull before it finished.', 'stream_ended');
}
