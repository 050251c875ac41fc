import { infiniteQueryOptions, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { registryApi, type NewRegistryBody, type RegistryPatchBody, type RegistryTestBody } from '@berth/contract';
import { api } from '../../lib/api-client';
import { queryKeys } from '../../lib/query-keys';

/** Every stored registry credential (never a password). */
export const registriesQuery = () =>
  queryOptions({
    queryKey: queryKeys.registries.list(),
    queryFn: ({ signal }) => api(registryApi.list, { signal }),
    staleTime: 30_000,
  });

const PAGE = 100;

/** A registry's repositories (v2 catalog), page after page. */
export const repositoriesQuery = (id: number) =>
  infiniteQueryOptions({
    queryKey: queryKeys.registries.repositories(id),
    queryFn: ({ signal, pageParam }) =>
      api(registryApi.repositories, {
        params: { id },
        query: { n: PAGE, ...(pageParam ? { last: pageParam } : {}) },
        signal,
      }),
    initialPageParam: '',
    getNextPageParam: (last) => last.next ?? undefined,
  });

/** A repository's tags, page after page. */
export const tagsQuery = (id: number, repo: string) =>
  infiniteQueryOptions({
    queryKey: queryKeys.registries.tags(id, repo),
    queryFn: ({ signal, pageParam }) =>
      api(registryApi.tags, {
        params: { id, repo },
        query: { n: PAGE, ...(pageParam ? { last: pageParam } : {}) },
        signal,
      }),
    initialPageParam: '',
    getNextPageParam: (last) => last.next ?? undefined,
  });

export function useSaveRegistry() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number | null; body: NewRegistryBody | RegistryPatchBody }) =>
      id === null
        ? api(registryApi.create, { body: body as NewRegistryBody })
        : api(registryApi.update, { params: { id }, body }),
    meta: { notifyError: false },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.registries.all }),
  });
}

export function useRemoveRegistry() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api(registryApi.remove, { params: { id } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.registries.all }),
  });
}

/** Tests a stored registry (`id`), or typed fields before saving (with `id`, untyped fields come from it). */
export function useTestRegistry() {
  return useMutation({
    mutationFn: ({ id, body }: { id: number | null; body?: RegistryTestBody }) =>
      body ? api(registryApi.testNew, { body }) : api(registryApi.test, { params: { id: id! } }),
    meta: { notifyError: false },
  });
}
