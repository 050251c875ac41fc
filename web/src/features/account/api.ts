import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { authApi, type ApiKey, type Me } from '@berth/contract';
import { api } from '../../lib/api-client';
import { session } from '../../lib/session';

export const accountKeys = {
  all: ['account'] as const,
  apiKeys: () => [...accountKeys.all, 'api-keys'] as const,
};

/** The start-up auth check; a 401 refreshes once and, failing that, signs out (api-client). */
export async function checkAuth(): Promise<Me | null> {
  try {
    const me = await api(authApi.me);
    session.signedIn(me.username, me.authDisabled);
    return me;
  } catch (err) {
    session.signedOut();
    throw err;
  }
}

export function useLogin() {
  return useMutation({
    mutationFn: (body: { username: string; password: string }) => api(authApi.login, { body }),
    onSuccess: (me) => session.signedIn(me.username, me.authDisabled),
  });
}

/** Revokes both sessions (access, then refresh) and forgets the user even if the server is gone. */
export function useLogout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      try {
        await api(authApi.logout);
      } finally {
        await api(authApi.logoutRefresh).catch((err: unknown) => console.warn('logout/refresh failed', err));
      }
    },
    onSettled: () => {
      session.signedOut();
      queryClient.clear();
      window.location.hash = '#/';
    },
  });
}

export function useChangeAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { username: string; password: string; current_password: string; keep_api_keys: boolean }) => api(authApi.changeMe, { body }),
    onSuccess: (me) => {
      session.signedIn(me.username, me.authDisabled);
      // A new password revokes the API keys unless they were kept.
      void queryClient.invalidateQueries({ queryKey: accountKeys.apiKeys() });
    },
  });
}

export const apiKeysQuery = () => queryOptions({ queryKey: accountKeys.apiKeys(), queryFn: ({ signal }) => api(authApi.keys, { signal }) });

export function useGenerateApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ keyName, currentPassword }: { keyName: string; currentPassword: string }) =>
      api(authApi.newKey, { body: { key_name: keyName, current_password: currentPassword } }),
    onSuccess: ({ token: _token, ...key }) => {
      // The list gains the new key; the token itself never enters the cache.
      queryClient.setQueryData<ApiKey[]>(accountKeys.apiKeys(), (prev) => [...(prev ?? []), key]);
      void queryClient.invalidateQueries({ queryKey: accountKeys.apiKeys() });
    },
  });
}

export function useRevokeApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api(authApi.revokeKey, { params: { id } }),
    onSuccess: (_res, id) => {
      queryClient.setQueryData<ApiKey[]>(accountKeys.apiKeys(), (prev) => prev?.filter((k) => k.id !== id));
      void queryClient.invalidateQueries({ queryKey: accountKeys.apiKeys() });
    },
  });
}
