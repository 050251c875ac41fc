import { queryOptions, useQuery } from '@tanstack/react-query';
import { appsApi } from '@berth/contract';
import { api } from '../../../lib/api-client';
import { appKeys } from './keys';

/** Fallback poll of the list while the tab is visible; the stats stream triggers refetches sooner (see useAppsLiveRefresh). */
const LIST_POLL_MS = 10_000;
const HEALTH_POLL_MS = 2_000;

export const appsQuery = () =>
  queryOptions({
    queryKey: appKeys.list(),
    queryFn: ({ signal }) => api(appsApi.list, { signal }),
    refetchInterval: LIST_POLL_MS,
  });

export const appQuery = (name: string) =>
  queryOptions({
    queryKey: appKeys.detail(name),
    queryFn: ({ signal }) => api(appsApi.get, { params: { name }, signal }),
    // While the healthcheck has not decided yet, look again soon so the page shows its verdict.
    refetchInterval: (q) => (q.state.data?.health === 'starting' ? HEALTH_POLL_MS : false),
  });

export const diagnosisQuery = (name: string, finishedAt: string) =>
  queryOptions({
    queryKey: appKeys.diagnosis(name, finishedAt),
    queryFn: ({ signal }) => api(appsApi.diagnosis, { params: { name }, signal }),
  });

export const processesQuery = (name: string) =>
  queryOptions({
    queryKey: appKeys.processes(name),
    queryFn: ({ signal }) => api(appsApi.processes, { params: { name }, signal }),
    refetchInterval: 5_000,
  });

export const useApps = () => useQuery(appsQuery());
export const useApp = (name: string) => useQuery(appQuery(name));
export const useDiagnosis = (name: string, finishedAt: string) => useQuery(diagnosisQuery(name, finishedAt));

/** Processes are only asked for while the app runs (the server answers 409 otherwise). */
export function useProcesses(name: string, running: boolean) {
  return useQuery({ ...processesQuery(name), enabled: running });
}
