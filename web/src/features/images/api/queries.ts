import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { imageApi, type ImageSummary, type PullProgress } from '@berth/contract';
import { api } from '../../../lib/api-client';
import { pullWithProgress } from './pull-stream';
import { queryKeys } from '../../../lib/query-keys';
import { useEnvironment } from '../../../lib/environment';

export const imagesQuery = (env: string) =>
  queryOptions({ queryKey: queryKeys.images.list(env), queryFn: ({ signal }) => api(imageApi.list, { env, signal }) });
export const imageQuery = (env: string, id: string) =>
  queryOptions({
    queryKey: queryKeys.images.detail(env, id),
    queryFn: ({ signal }) => api(imageApi.get, { env, params: { id }, signal }),
  });

export const useImages = () => useQuery(imagesQuery(useEnvironment()));
export const useImage = (id: string) => useQuery(imageQuery(useEnvironment(), id));

/** Pull by reference with live progress; the answer replaces the list. */
export function usePullImage(onProgress: (batch: PullProgress[]) => void) {
  const env = useEnvironment();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (image: string) => pullWithProgress(env, image, onProgress),
    // The pull dialog shows the failure beside the progress.
    meta: { notifyError: false },
    onSuccess: (list: ImageSummary[]) => queryClient.setQueryData(queryKeys.images.list(env), list),
  });
}

/** Pull an image's tag again; what the tag names now may be a new image. */
export function useRepullImage() {
  const env = useEnvironment();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api(imageApi.repull, { env, params: { id } }),
    onSuccess: (image, id) => {
      queryClient.setQueryData(queryKeys.images.detail(env, image.Id), image);
      void queryClient.invalidateQueries({ queryKey: queryKeys.images.detail(env, id) });
      void queryClient.invalidateQueries({ queryKey: queryKeys.images.list(env) });
    },
  });
}

export function useDeleteImage() {
  const env = useEnvironment();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api(imageApi.remove, { env, params: { id } }),
    onSuccess: (image) => {
      queryClient.setQueryData<ImageSummary[]>(queryKeys.images.list(env), (prev) =>
        prev?.filter((i) => i.Id !== image.Id),
      );
      queryClient.removeQueries({ queryKey: queryKeys.images.detail(env, image.Id) });
      void queryClient.invalidateQueries({ queryKey: queryKeys.images.list(env) });
    },
  });
}

/** Removes many images; the answer's list replaces the cached one. */
export function useRemoveImages() {
  const env = useEnvironment();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (ids: string[]) => api(imageApi.batch, { env, body: { action: 'remove', ids } }),
    // The selection bar shows the outcome.
    meta: { notifyError: false },
    onSuccess: ({ images }, ids) => {
      queryClient.setQueryData(queryKeys.images.list(env), images);
      for (const id of ids) queryClient.removeQueries({ queryKey: queryKeys.images.detail(env, id) });
    },
  });
}

/** Remove one tag of a multi-tagged image; the answer is the image with its remaining tags. */
export function useUntagImage() {
  const env = useEnvironment();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, tag }: { id: string; tag: string }) => api(imageApi.untag, { env, params: { id, tag } }),
    onSuccess: (image) => {
      queryClient.setQueryData(queryKeys.images.detail(env, image.Id), image);
      void queryClient.invalidateQueries({ queryKey: queryKeys.images.list(env) });
    },
  });
}
