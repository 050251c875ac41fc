import { imageApi, type ImageSummary, type PullProgress } from '@berth/contract';
import { ApiError, apiRaw, readEvents, type ApiErrorCode } from '../../../lib/api-client';

/**
 * Pulls an image with the streamed variant of POST /api/resources/images/: progress events go
 * to `onProgress`, the final image list is returned, and a failure, before or during the pull,
 * throws an ApiError like any other call.
 */
export async function pullWithProgress(
  env: string,
  image: string,
  onProgress: (batch: PullProgress[]) => void,
  signal?: AbortSignal,
): Promise<ImageSummary[]> {
  const res = await apiRaw(imageApi.pull, { env, body: { image }, signal, accept: 'text/event-stream' });
  if (!(res.headers.get('Content-Type') ?? '').includes('text/event-stream'))
    return (await res.json()) as ImageSummary[];
  for await (const batch of readEvents(res)) {
    const progress: PullProgress[] = [];
    for (const e of batch) {
      if (e.event === 'progress') progress.push(JSON.parse(e.data) as PullProgress);
      else if (e.event === 'done') {
        if (progress.length) onProgress(progress);
        return JSON.parse(e.data) as ImageSummary[];
      } else if (e.event === 'error') {
        const body = JSON.parse(e.data) as { detail: string; code: ApiErrorCode };
        throw new ApiError(502, 'Pull Failed', body.detail, body.code);
      }
    }
    if (progress.length) onProgress(progress);
  }
  throw new ApiError(502, 'Pull Failed', 'The server closed the pull before it finished.', 'stream_ended');
}
