import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { usersApi, type Role } from '@berth/contract';
import { api } from '../../lib/api-client';
import type { AdminReauth } from './components/AdminReauth';
import { queryKeys } from '../../lib/query-keys';

export const usersQuery = () =>
  queryOptions({ queryKey: queryKeys.users.all, queryFn: ({ signal }) => api(usersApi.list, { signal }) });

/** Every users mutation refreshes the list. */
function useUsersMutation<V, R>(fn: (vars: V) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: queryKeys.users.all }),
  });
}

export const useAddUser = () =>
  useUsersMutation((body: { email: string; password: string; role: Role } & AdminReauth) =>
    api(usersApi.create, { body }),
  );

export const useUpdateUser = () =>
  useUsersMutation(
    ({ id, ...body }: { id: number; role?: Role; disabled?: boolean; password?: string } & AdminReauth) =>
      api(usersApi.update, { params: { id }, body }),
  );

export const useDeleteUser = () =>
  useUsersMutation(({ id, ...body }: { id: number } & AdminReauth) => api(usersApi.remove, { params: { id }, body }));

export const useEndUserSessions = () => useUsersMutation((id: number) => api(usersApi.endSessions, { params: { id } }));
