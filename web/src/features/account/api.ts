import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { authApi, type ApiKey, type Me } from '@berth/contract';
import { api, refreshSession } from '../../lib/api-client';
import { session } from '../../lib/session';
import { queryKeys } from '../../lib/query-keys';

/**
 * The start-up auth check: one open call that never answers 401, so a signed-out start logs no
 * error. Only when a live refresh cookie could sign the browser in does a refresh follow.
 */
export async function checkAuth(): Promise<Me | null> {
  try {
    let status = await api(authApi.status);
    if (!status.signedIn && status.canRefresh && (await refreshSession())) status = await api(authApi.status);
    if (status.signedIn && status.username !== undefined) {
      session.signedIn(status.username, status.authDisabled, status.role ?? 'viewer');
      return { username: status.username, authDisabled: status.authDisabled };
    }
    session.signedOut();
    return null;
  } catch (err) {
    session.signedOut();
    throw err;
  }
}

export function useLogin() {
  return useMutation({
    mutationFn: (body: { username: string; password: string }) => api(authApi.login, { body }),
    // The login screen shows the failure under the form.
    meta: { notifyError: false },
    // With TOTP on there is no session yet: the login screen asks for the code.
    // The status call that follows brings the role.
    onSuccess: async (result) => {
      if ('username' in result) await checkAuth();
    },
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
    // Signing out happens whatever the server says; a failed logout is not worth a notification.
    meta: { notifyError: false },
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
    mutationFn: (body: { username: string; password: string; current_password: string; keep_api_keys: boolean }) =>
      api(authApi.changeMe, { body }),
    onSuccess: (me) => {
      session.signedIn(me.username, me.authDisabled);
      // A new password revokes the API keys unless they were kept.
      void queryClient.invalidateQueries({ queryKey: queryKeys.account.apiKeys() });
    },
  });
}

export const apiKeysQuery = () =>
  queryOptions({ queryKey: queryKeys.account.apiKeys(), queryFn: ({ signal }) => api(authApi.keys, { signal }) });

export function useGenerateApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ keyName, currentPassword }: { keyName: string; currentPassword: string }) =>
      api(authApi.newKey, { body: { key_name: keyName, current_password: currentPassword } }),
    onSuccess: ({ token: _token, ...key }) => {
      // The list gains the new key; the token itself never enters the cache.
      queryClient.setQueryData<ApiKey[]>(queryKeys.account.apiKeys(), (prev) => [...(prev ?? []), key]);
      void queryClient.invalidateQueries({ queryKey: queryKeys.account.apiKeys() });
    },
  });
}

export function useRevokeApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api(authApi.revokeKey, { params: { id } }),
    onSuccess: (_res, id) => {
      queryClient.setQueryData<ApiKey[]>(queryKeys.account.apiKeys(), (prev) => prev?.filter((k) => k.id !== id));
      void queryClient.invalidateQueries({ queryKey: queryKeys.account.apiKeys() });
    },
  });
}

export const sessionsQuery = () =>
  queryOptions({
    queryKey: queryKeys.account.sessions(),
    queryFn: ({ signal }) => api(authApi.sessions, { signal }),
  });

export function useEndSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api(authApi.endSession, { params: { id } }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: queryKeys.account.sessions() }),
  });
}

export const useTotpSetup = () => useMutation({ mutationFn: () => api(authApi.totpSetup) });
export const useTotpEnable = () =>
  useMutation({ mutationFn: (code: string) => api(authApi.totpEnable, { body: { code } }) });
export const useTotpDisable = () =>
  useMutation({ mutationFn: (body: { password: string; code: string }) => api(authApi.totpDisable, { body }) });

/** Starts linking single sign-on to this account; the page then goes to the provider's URL. */
export const useOidcLink = () =>
  useMutation({
    mutationFn: (body: { current_password: string; totp_code?: string }) => api(authApi.oidcLink, { body }),
    meta: { notifyError: false },
  });

/** The second sign-in step with TOTP on; then the status call brings the session. */
export function useLoginTotp() {
  return useMutation({
    mutationFn: (body: { challenge: string; code?: string; recovery_code?: string }) =>
      api(authApi.loginTotp, { body }),
    meta: { notifyError: false },
    onSuccess: async () => {
      await checkAuth();
    },
  });
}

/** The status call as a query (User > Security reads whether TOTP is on). */
export const authStatusQuery = () =>
  queryOptions({ queryKey: queryKeys.account.status(), queryFn: ({ signal }) => api(authApi.status, { signal }) });
