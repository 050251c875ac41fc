import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { autoUpdateApi, type AutoUpdateOverride, type AutoUpdatePolicy } from '@berth/contract';
import { api } from '../../lib/api-client';

export const autoUpdateKeys = {
  all: ['auto-update'] as const,
  settings: () => [...autoUpdateKeys.all, 'settings'] as const,
  runs: () => [...autoUpdateKeys.all, 'runs'] as const,
  app: (name: string) => [...autoUpdateKeys.all, 'app', name] as const,
};

export const useAutoUpdateSettings = () => useQuery(queryOptions({ queryKey: autoUpdateKeys.settings(), queryFn: ({ signal }) => api(autoUpdateApi.get, { signal }) }));

/** Run history; read again every 2 s while a run is under way. */
export const useAutoUpdateRuns = () =>
  useQuery({
    queryKey: autoUpdateKeys.runs(),
    queryFn: ({ signal }) => api(autoUpdateApi.runs, { signal }),
    refetchInterval: (q) => (q.state.data?.some((r) => r.finished_at === null) ? 2000 : false),
  });

export const useAppAutoUpdate = (name: string) => useQuery({ queryKey: autoUpdateKeys.app(name), queryFn: ({ signal }) => api(autoUpdateApi.app, { params: { name }, signal }) });

export function useSaveAutoUpdate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: AutoUpdatePolicy) => api(autoUpdateApi.put, { body }),
    onSuccess: (settings) => {
      queryClient.setQueryData(autoUpdateKeys.settings(), settings);
      // Every app's effective policy may have changed.
      void queryClient.invalidateQueries({ queryKey: [...autoUpdateKeys.all, 'app'] });
    },
  });
}

export function useRunAutoUpdate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api(autoUpdateApi.run),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: autoUpdateKeys.runs() }),
  });
}

export function useSaveAppAutoUpdate(name: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: AutoUpdateOverride) => api(autoUpdateApi.putApp, { params: { name }, body }),
    onSuccess: (data) => queryClient.setQueryData(autoUpdateKeys.app(name), data),
  });
}
