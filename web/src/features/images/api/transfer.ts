import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  imageBuildApi,
  type BuildImageRequest,
  type BuildResult,
  type LoadResult,
  type PullProgress,
  type PushResult,
} from '@berth/contract';
import { api, apiRaw, buildUrl } from '../../../lib/api-client';
import { followJob } from '../../../lib/streamed-job';
import { queryKeys } from '../../../lib/query-keys';
import { useEnvironment } from '../../../lib/environment';

/**
 * Builds with live output (`onOutput`); with a context file the request is multipart (options
 * first) and the bytes sent go to `onUpload`.
 */
export async function buildImage(
  env: string,
  options: BuildImageRequest,
  context: File | null,
  onOutput: (text: string) => void,
  onUpload: (sent: number, total: number) => void,
  signal?: AbortSignal,
): Promise<BuildResult> {
  let body: unknown = options;
  if (context) {
    const form = new FormData();
    form.append('options', JSON.stringify(options));
    form.append('context', context, context.name);
    body = form;
  }
  const res = await apiRaw(imageBuildApi.build, {
    env,
    body,
    signal,
    accept: 'text/event-stream',
    ...(context ? { onUpload } : {}),
  } as never);
  return followJob<BuildResult>(res, 'Build', (event, data) => {
    if (event === 'output') onOutput((data as { text: string }).text);
  });
}

/** Loads a `docker save` archive; the bytes sent go to `onUpload`, the engine's progress to `onProgress`. */
export async function loadImages(
  env: string,
  file: File,
  onProgress: (p: PullProgress) => void,
  onUpload: (sent: number, total: number) => void,
  signal?: AbortSignal,
): Promise<LoadResult> {
  const res = await apiRaw(imageBuildApi.load, {
    env,
    body: file,
    signal,
    accept: 'text/event-stream',
    onUpload,
  } as never);
  return followJob<LoadResult>(res, 'Load', (event, data) => {
    if (event === 'progress') onProgress(data as PullProgress);
  });
}

/** Where the browser downloads one image, or several in one archive. */
export function exportUrl(env: string, ids: string[]): string {
  return ids.length === 1
    ? buildUrl(imageBuildApi.export, { env, params: { id: ids[0]! } })
    : buildUrl(imageBuildApi.exportMany, { env, query: { ids: ids.join(',') } } as never);
}

export function useTagImage() {
  const env = useEnvironment();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, repo, tag }: { id: string; repo: string; tag: string }) =>
      api(imageBuildApi.tag, { env, params: { id }, body: { repo, tag } }),
    onSuccess: (image) => {
      queryClient.setQueryData(queryKeys.images.detail(env, image.Id), image);
      void queryClient.invalidateQueries({ queryKey: queryKeys.images.list(env) });
    },
  });
}

export function usePushImage() {
  const env = useEnvironment();
  return useMutation({
    mutationFn: async ({ id, tag }: { id: string; tag?: string }): Promise<PushResult> =>
      followJob<PushResult>(
        await apiRaw(imageBuildApi.push, {
          env,
          params: { id },
          body: tag ? { tag } : {},
          accept: 'text/event-stream',
        }),
        'Push',
        () => undefined,
      ),
  });
}
