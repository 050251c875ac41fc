import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { appsApi, environmentApi, type EnvironmentPatchBody, type NewEnvironmentBody } from '@berth/contract';
import { api } from '../../lib/api-client';

export const environmentKeys = {
  all: ['environments'] as const,
  list: () => [...environmentKeys.all, 'list'] as const,
  apps: (id: string) => [...environmentKeys.all, 'apps', id] as const,
};

/** Every environment with its last known status; the server's watch keeps it fresh, so a poll suffices. */
export const environmentsQuery = () =>
  queryOptions({
    queryKey: environmentKeys.list(),
    queryFn: ({ signal }) => api(environmentApi.list, { signal }),
    refetchInterval: 15_000,
    staleTime: 5_000,
  });

/** The apps list of one named environment, whichever is selected (the dashboard's all-environments view). */
export const environmentAppsQuery = (id: string) =>
  queryOptions({
    queryKey: environmentKeys.apps(id),
    queryFn: ({ signal }) => api(appsApi.list, { signal, env: id }),
    refetchInterval: 15_000,
  });

export function useCreateEnvironment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: NewEnvironmentBody) => api(environmentApi.create, { body }),
    meta: { notifyError: false },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: environmentKeys.all }),
  });
}

export function useUpdateEnvironment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: EnvironmentPatchBody }) =>
      api(environmentApi.update, { params: { env: id }, body }),
    meta: { notifyError: false },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: environmentKeys.all }),
  });
}

export function useRemoveEnvironment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api(environmentApi.remove, { params: { env: id } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: environmentKeys.all }),
  });
}

export function useTestEnvironment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api(environmentApi.test, { params: { env: id } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: environmentKeys.list() }),
  });
}
