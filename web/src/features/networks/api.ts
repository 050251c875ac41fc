import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { networkApi, type CreateNetworkBody, type Network } from '@berth/contract';
import { api } from '../../lib/api-client';
import { queryKeys } from '../../lib/query-keys';
import { useEnvironment } from '../../lib/environment';

export const networksQuery = (env: string) =>
  queryOptions({
    queryKey: queryKeys.networks.list(env),
    queryFn: ({ signal }) => api(networkApi.list, { env, signal }),
  });
export const networkQuery = (env: string, id: string) =>
  queryOptions({
    queryKey: queryKeys.networks.detail(env, id),
    queryFn: ({ signal }) => api(networkApi.get, { env, params: { id }, signal }),
  });

export const useNetworks = () => useQuery(networksQuery(useEnvironment()));
export const useNetwork = (id: string) => useQuery(networkQuery(useEnvironment(), id));

/** Create answers with the whole list, which replaces the cached one. */
export function useCreateNetwork() {
  const env = useEnvironment();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateNetworkBody) => api(networkApi.create, { env, body }),
    // The create form shows the failure in its own alert.
    meta: { notifyError: false },
    onSuccess: (list) => queryClient.setQueryData(queryKeys.networks.list(env), list),
  });
}

/** Deletes by name (what the spec's detail menu does) or id. */
export function useDeleteNetwork() {
  const env = useEnvironment();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api(networkApi.remove, { env, params: { id } }),
    onSuccess: (network) => {
      queryClient.setQueryData<Network[]>(queryKeys.networks.list(env), (prev) =>
        prev?.filter((n) => n.Id !== network.Id),
      );
      queryClient.removeQueries({ queryKey: queryKeys.networks.detail(env, network.Id) });
      queryClient.removeQueries({ queryKey: queryKeys.networks.detail(env, network.Name) });
      void queryClient.invalidateQueries({ queryKey: queryKeys.networks.list(env) });
    },
  });
}

/** Removes many networks; the answer's list replaces the cached one. */
export function useRemoveNetworks() {
  const env = useEnvironment();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (ids: string[]) => api(networkApi.batch, { env, body: { action: 'remove', ids } }),
    // The selection bar shows the outcome.
    meta: { notifyError: false },
    onSuccess: ({ networks }, ids) => {
      queryClient.setQueryData(queryKeys.networks.list(env), networks);
      for (const id of ids) queryClient.removeQueries({ queryKey: queryKeys.networks.detail(env, id) });
    },
  });
}
