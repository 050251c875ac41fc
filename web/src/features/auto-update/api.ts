import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { autoUpdateApi, type AutoUpdateOverride, type AutoUpdatePolicy } from '@berth/contract';
import { api } from '../../lib/api-client';
import { useEnvironment } from '../../lib/environment';
import { queryKeys } from '../../lib/query-keys';

export const useAutoUpdateSettings = () =>
  useQuery(
    queryOptions({
      queryKey: queryKeys.autoUpdate.settings(),
      queryFn: ({ signal }) => api(autoUpdateApi.get, { signal }),
    }),
  );

/** Run history; read again every 2 s while a run is under way. */
export const useAutoUpdateRuns = () =>
  useQuery({
    queryKey: queryKeys.autoUpdate.runs(),
    queryFn: ({ signal }) => api(autoUpdateApi.runs, { signal }),
    refetchInterval: (q) => (q.state.data?.some((r) => r.finished_at === null) ? 2000 : false),
  });

export const useAppAutoUpdate = (name: string) => {
  const env = useEnvironment();
  return useQuery({
    queryKey: queryKeys.autoUpdate.app(env, name),
    queryFn: ({ signal }) => api(autoUpdateApi.app, { env, params: { name }, signal }),
  });
};

export function useSaveAutoUpdate() {
  const env = useEnvironment();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: AutoUpdatePolicy) => api(autoUpdateApi.put, { body }),
    onSuccess: (settings) => {
      queryClient.setQueryData(queryKeys.autoUpdate.settings(), settings);
      // Every app's and project's effective policy may have changed.
      void queryClient.invalidateQueries({ queryKey: queryKeys.autoUpdate.apps(env) });
      void queryClient.invalidateQueries({ queryKey: queryKeys.autoUpdate.projects(env) });
    },
  });
}

export function useRunAutoUpdate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api(autoUpdateApi.run),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.autoUpdate.runs() }),
  });
}

export function useSaveAppAutoUpdate(name: string) {
  const env = useEnvironment();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: AutoUpdateOverride) => api(autoUpdateApi.putApp, { env, params: { name }, body }),
    onSuccess: (data) => queryClient.setQueryData(queryKeys.autoUpdate.app(env, name), data),
  });
}

export const useProjectAutoUpdate = (name: string) => {
  const env = useEnvironment();
  return useQuery({
    queryKey: queryKeys.autoUpdate.project(env, name),
    queryFn: ({ signal }) => api(autoUpdateApi.project, { env, params: { name }, signal }),
  });
};

export function useSaveProjectAutoUpdate(name: string) {
  const env = useEnvironment();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: AutoUpdateOverride) => api(autoUpdateApi.putProject, { env, params: { name }, body }),
    onSuccess: (data) => queryClient.setQueryData(queryKeys.autoUpdate.project(env, name), data),
  });
}
