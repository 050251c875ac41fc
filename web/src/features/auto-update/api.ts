import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { autoUpdateApi, type AutoUpdateOverride, type AutoUpdatePolicy } from '@berth/contract';
import { api } from '../../lib/api-client';

export const autoUpdateKeys = {
  all: ['auto-update'] as const,
  settings: () => [...autoUpdateKeys.all, 'settings'] as const,
  runs: () => [...autoUpdateKeys.all, 'runs'] as const,
  app: (name: string) => [...autoUpdateKeys.all, 'app', name] as const,
  project: (name: string) => [...autoUpdateKeys.all, 'project', name] as const,
  nextRun: (schedule: string) => [...autoUpdateKeys.all, 'next-run', schedule] as const,
};

export const useAutoUpdateSettings = () =>
  useQuery(
    queryOptions({ queryKey: autoUpdateKeys.settings(), queryFn: ({ signal }) => api(autoUpdateApi.get, { signal }) }),
  );

/** Run history; read again every 2 s while a run is under way. */
export const useAutoUpdateRuns = () =>
  useQuery({
    queryKey: autoUpdateKeys.runs(),
    queryFn: ({ signal }) => api(autoUpdateApi.runs, { signal }),
    refetchInterval: (q) => (q.state.data?.some((r) => r.finished_at === null) ? 2000 : false),
  });

export const useAppAutoUpdate = (name: string) =>
  useQuery({
    queryKey: autoUpdateKeys.app(name),
    queryFn: ({ signal }) => api(autoUpdateApi.app, { params: { name }, signal }),
  });

export function useSaveAutoUpdate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: AutoUpdatePolicy) => api(autoUpdateApi.put, { body }),
    onSuccess: (settings) => {
      queryClient.setQueryData(autoUpdateKeys.settings(), settings);
      // Every app's and project's effective policy may have changed.
      void queryClient.invalidateQueries({ queryKey: [...autoUpdateKeys.all, 'app'] });
      void queryClient.invalidateQueries({ queryKey: [...autoUpdateKeys.all, 'project'] });
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

export const useProjectAutoUpdate = (name: string) =>
  useQuery({
    queryKey: autoUpdateKeys.project(name),
    queryFn: ({ signal }) => api(autoUpdateApi.project, { params: { name }, signal }),
  });

export function useSaveProjectAutoUpdate(name: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: AutoUpdateOverride) => api(autoUpdateApi.putProject, { params: { name }, body }),
    onSuccess: (data) => queryClient.setQueryData(autoUpdateKeys.project(name), data),
  });
}

/** When a schedule fires next, asked of the server (its time zone is the one that counts); the last answer stays while a new one loads. */
export const useNextRun = (schedule: string) =>
  useQuery({
    queryKey: autoUpdateKeys.nextRun(schedule),
    queryFn: ({ signal }) => api(autoUpdateApi.nextRun, { query: { schedule }, signal }),
    enabled: schedule.trim() !== '',
    placeholderData: keepPreviousData,
    retry: false,
    staleTime: 30_000,
  });
