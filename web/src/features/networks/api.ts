import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { networkApi, type CreateNetworkBody, type Network } from '@berth/contract';
import { api } from '../../lib/api-client';

export const networkKeys = {
  all: ['networks'] as const,
  list: () => [...networkKeys.all, 'list'] as const,
  detail: (id: string) => [...networkKeys.all, 'detail', id] as const,
};

export const networksQuery = () =>
  queryOptions({ queryKey: networkKeys.list(), queryFn: ({ signal }) => api(networkApi.list, { signal }) });
export const networkQuery = (id: string) =>
  queryOptions({
    queryKey: networkKeys.detail(id),
    queryFn: ({ signal }) => api(networkApi.get, { params: { id }, signal }),
  });

export const useNetworks = () => useQuery(networksQuery());
export const useNetwork = (id: string) => useQuery(networkQuery(id));

/** Create answers with the whole list, which replaces the cached one. */
export function useCreateNetwork() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateNetworkBody) => api(networkApi.create, { body }),
    // The create form shows the failure in its own alert.
    meta: { notifyError: false },
    onSuccess: (list) => queryClient.setQueryData(networkKeys.list(), list),
  });
}

/** Deletes by name (what the spec's detail menu does) or id. */
export function useDeleteNetwork() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api(networkApi.remove, { params: { id } }),
    onSuccess: (network) => {
      queryClient.setQueryData<Network[]>(networkKeys.list(), (prev) => prev?.filter((n) => n.Id !== network.Id));
      queryClient.removeQueries({ queryKey: networkKeys.detail(network.Id) });
      queryClient.removeQueries({ queryKey: networkKeys.detail(network.Name) });
      void queryClient.invalidateQueries({ queryKey: networkKeys.list() });
    },
  });
}

/** Removes many networks; the answer's list replaces the cached one. */
export function useRemoveNetworks() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (ids: string[]) => api(networkApi.batch, { body: { action: 'remove', ids } }),
    // The selection bar shows the outcome.
    meta: { notifyError: false },
    onSuccess: ({ networks }, ids) => {
      queryClient.setQueryData(networkKeys.list(), networks);
      for (const id of ids) queryClient.removeQueries({ queryKey: networkKeys.detail(id) });
    },
  });
}
