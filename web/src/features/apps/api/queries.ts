import { queryOptions, useQuery } from '@tanstack/react-query';
import { appsApi } from '@berth/contract';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { useEnvironment } from '../../../lib/environment';

/** Fallback poll of the list while the tab is visible; the stats stream triggers refetches sooner (see useAppsLiveRefresh). */
const LIST_POLL_MS = 10_000;
const HEALTH_POLL_MS = 2_000;

export const appsQuery = (env: string) =>
  queryOptions({
    queryKey: queryKeys.apps.list(env),
    queryFn: ({ signal }) => api(appsApi.list, { env, signal }),
    refetchInterval: LIST_POLL_MS,
  });

export const appQuery = (env: string, name: string) =>
  queryOptions({
    queryKey: queryKeys.apps.detail(env, name),
    queryFn: ({ signal }) => api(appsApi.get, { env, params: { name }, signal }),
    // While the healthcheck has not decided yet, look again soon so the page shows its verdict.
    refetchInterval: (q) => (q.state.data?.health === 'starting' ? HEALTH_POLL_MS : false),
  });

export const diagnosisQuery = (env: string, name: string, finishedAt: string) =>
  queryOptions({
    queryKey: queryKeys.apps.diagnosis(env, name, finishedAt),
    queryFn: ({ signal }) => api(appsApi.diagnosis, { env, params: { name }, signal }),
  });

export const processesQuery = (env: string, name: string) =>
  queryOptions({
    queryKey: queryKeys.apps.processes(env, name),
    queryFn: ({ signal }) => api(appsApi.processes, { env, params: { name }, signal }),
    refetchInterval: 5_000,
  });

export const useApps = () => useQuery(appsQuery(useEnvironment()));
export const useApp = (name: string) => useQuery(appQuery(useEnvironment(), name));
export const useDiagnosis = (name: string, finishedAt: string) =>
  useQuery(diagnosisQuery(useEnvironment(), name, finishedAt));

/** Processes are only asked for while the app runs (the server answers 409 otherwise). */
export function useProcesses(name: string, running: boolean) {
  return useQuery({ ...processesQuery(useEnvironment(), name), enabled: running });
}
