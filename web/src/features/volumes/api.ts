import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { volumeApi, type Volume } from '@berth/contract';
import { api } from '../../lib/api-client';
import { queryKeys } from '../../lib/query-keys';
import { useEnvironment } from '../../lib/environment';

export const volumesQuery = (env: string) =>
  queryOptions({
    queryKey: queryKeys.volumes.list(env),
    queryFn: ({ signal }) => api(volumeApi.list, { env, signal }),
  });
export const volumeQuery = (env: string, name: string) =>
  queryOptions({
    queryKey: queryKeys.volumes.detail(env, name),
    queryFn: ({ signal }) => api(volumeApi.get, { env, params: { name }, signal }),
  });

export const useVolumes = () => useQuery(volumesQuery(useEnvironment()));
export const useVolume = (name: string) => useQuery(volumeQuery(useEnvironment(), name));

/** Create answers with the whole list, which replaces the cached one. */
export function useCreateVolume() {
  const env = useEnvironment();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => api(volumeApi.create, { env, body: { name } }),
    onSuccess: (list) => queryClient.setQueryData(queryKeys.volumes.list(env), list),
  });
}

export function useDeleteVolume() {
  const env = useEnvironment();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => api(volumeApi.remove, { env, params: { name } }),
    onSuccess: (volume) => {
      queryClient.setQueryData<Volume[]>(queryKeys.volumes.list(env), (prev) =>
        prev?.filter((v) => v.Name !== volume.Name),
      );
      queryClient.removeQueries({ queryKey: queryKeys.volumes.detail(env, volume.Name) });
      void queryClient.invalidateQueries({ queryKey: queryKeys.volumes.list(env) });
    },
  });
}

/** Removes many volumes; the answer's list replaces the cached one. */
export function useRemoveVolumes() {
  const env = useEnvironment();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (names: string[]) => api(volumeApi.batch, { env, body: { action: 'remove', names } }),
    // The selection bar shows the outcome.
    meta: { notifyError: false },
    onSuccess: ({ volumes }, names) => {
      queryClient.setQueryData(queryKeys.volumes.list(env), volumes);
      for (const name of names) queryClient.removeQueries({ queryKey: queryKeys.volumes.detail(env, name) });
    },
  });
}
