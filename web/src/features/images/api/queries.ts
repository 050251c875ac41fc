import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { imageApi, type ImageSummary, type PullProgress } from '@berth/contract';
import { api } from '../../../lib/api-client';
import { imageKeys } from './keys';
import { pullWithProgress } from './pull-stream';

export const imagesQuery = () =>
  queryOptions({ queryKey: imageKeys.list(), queryFn: ({ signal }) => api(imageApi.list, { signal }) });
export const imageQuery = (id: string) =>
  queryOptions({
    queryKey: imageKeys.detail(id),
    queryFn: ({ signal }) => api(imageApi.get, { params: { id }, signal }),
  });

export const useImages = () => useQuery(imagesQuery());
export const useImage = (id: string) => useQuery(imageQuery(id));

/** Pull by reference with live progress; the answer replaces the list. */
export function usePullImage(onProgress: (batch: PullProgress[]) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (image: string) => pullWithProgress(image, onProgress),
    // The pull dialog shows the failure beside the progress.
    meta: { notifyError: false },
    onSuccess: (list: ImageSummary[]) => queryClient.setQueryData(imageKeys.list(), list),
  });
}

/** Pull an image's tag again; what the tag names now may be a new image. */
export function useRepullImage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api(imageApi.repull, { params: { id } }),
    onSuccess: (image, id) => {
      queryClient.setQueryData(imageKeys.detail(image.Id), image);
      void queryClient.invalidateQueries({ queryKey: imageKeys.detail(id) });
      void queryClient.invalidateQueries({ queryKey: imageKeys.list() });
    },
  });
}

export function useDeleteImage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api(imageApi.remove, { params: { id } }),
    onSuccess: (image) => {
      queryClient.setQueryData<ImageSummary[]>(imageKeys.list(), (prev) => prev?.filter((i) => i.Id !== image.Id));
      queryClient.removeQueries({ queryKey: imageKeys.detail(image.Id) });
      void queryClient.invalidateQueries({ queryKey: imageKeys.list() });
    },
  });
}

/** Removes many images; the answer's list replaces the cached one. */
export function useRemoveImages() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (ids: string[]) => api(imageApi.batch, { body: { action: 'remove', ids } }),
    // The selection bar shows the outcome.
    meta: { notifyError: false },
    onSuccess: ({ images }, ids) => {
      queryClient.setQueryData(imageKeys.list(), images);
      for (const id of ids) queryClient.removeQueries({ queryKey: imageKeys.detail(id) });
    },
  });
}

/** Remove one tag of a multi-tagged image; the answer is the image with its remaining tags. */
export function useUntagImage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, tag }: { id: string; tag: string }) => api(imageApi.untag, { params: { id, tag } }),
    onSuccess: (image) => {
      queryClient.setQueryData(imageKeys.detail(image.Id), image);
      void queryClient.invalidateQueries({ queryKey: imageKeys.list() });
    },
  });
}
