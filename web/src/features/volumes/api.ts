import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { volumeApi, type Volume } from '@berth/contract';
import { api } from '../../lib/api-client';

export const volumeKeys = {
  all: ['volumes'] as const,
  list: () => [...volumeKeys.all, 'list'] as const,
  detail: (name: string) => [...volumeKeys.all, 'detail', name] as const,
};

export const volumesQuery = () =>
  queryOptions({ queryKey: volumeKeys.list(), queryFn: ({ signal }) => api(volumeApi.list, { signal }) });
export const volumeQuery = (name: string) =>
  queryOptions({
    queryKey: volumeKeys.detail(name),
    queryFn: ({ signal }) => api(volumeApi.get, { params: { name }, signal }),
  });

export const useVolumes = () => useQuery(volumesQuery());
export const useVolume = (name: string) => useQuery(volumeQuery(name));

/** Create answers with the whole list, which replaces the cached one. */
export function useCreateVolume() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => api(volumeApi.create, { body: { name } }),
    onSuccess: (list) => queryClient.setQueryData(volumeKeys.list(), list),
  });
}

export function useDeleteVolume() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => api(volumeApi.remove, { params: { name } }),
    onSuccess: (volume) => {
      queryClient.setQueryData<Volume[]>(volumeKeys.list(), (prev) => prev?.filter((v) => v.Name !== volume.Name));
      queryClient.removeQueries({ queryKey: volumeKeys.detail(volume.Name) });
      void queryClient.invalidateQueries({ queryKey: volumeKeys.list() });
    },
  });
}

/** Removes many volumes; the answer's list replaces the cached one. */
export function useRemoveVolumes() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (names: string[]) => api(volumeApi.batch, { body: { action: 'remove', names } }),
    // The selection bar shows the outcome.
    meta: { notifyError: false },
    onSuccess: ({ volumes }, names) => {
      queryClient.setQueryData(volumeKeys.list(), volumes);
      for (const name of names) queryClient.removeQueries({ queryKey: volumeKeys.detail(name) });
    },
  });
}
