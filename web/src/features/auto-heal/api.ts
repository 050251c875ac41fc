import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { autoHealApi, type AutoHealOverride, type AutoHealPolicy } from '@berth/contract';
import { api } from '../../lib/api-client';
import { useEnvironment } from '../../lib/environment';
import { queryKeys } from '../../lib/query-keys';

export const useAutoHealDefault = () =>
  useQuery({
    queryKey: queryKeys.autoHeal.settings(),
    queryFn: ({ signal }) => api(autoHealApi.get, { signal }),
  });

export function useSaveAutoHealDefault() {
  const env = useEnvironment();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: AutoHealPolicy) => api(autoHealApi.put, { body }),
    onSuccess: (data) => {
      queryClient.setQueryData(queryKeys.autoHeal.settings(), data);
      // Every effective policy may have changed.
      void queryClient.invalidateQueries({ queryKey: queryKeys.autoHeal.all(env) });
    },
  });
}

/** An app's auto-heal, or with `service` a compose service's (`name` is then the project). */
export const useTargetAutoHeal = (name: string, service?: string) => {
  const env = useEnvironment();
  return useQuery({
    queryKey: queryKeys.autoHeal.target(env, name, service),
    // What auto-heal did (restarts, a give-up) shows while the page is open.
    refetchInterval: 10_000,
    queryFn: ({ signal }) =>
      service
        ? api(autoHealApi.service, { env, params: { name, service }, signal })
        : api(autoHealApi.app, { env, params: { name }, signal }),
  });
};

export function useSaveTargetAutoHeal(name: string, service?: string) {
  const env = useEnvironment();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: AutoHealOverride) =>
      service
        ? api(autoHealApi.putService, { env, params: { name, service }, body })
        : api(autoHealApi.putApp, { env, params: { name }, body }),
    onSuccess: (data) => queryClient.setQueryData(queryKeys.autoHeal.target(env, name, service), data),
  });
}

/** Forgets that auto-heal gave up (and its restarts of the last hour), so it tries again. */
export function useResetTargetAutoHeal(name: string, service?: string) {
  const env = useEnvironment();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      service
        ? api(autoHealApi.resetService, { env, params: { name, service } })
        : api(autoHealApi.resetApp, { env, params: { name } }),
    onSuccess: (data) => queryClient.setQueryData(queryKeys.autoHeal.target(env, name, service), data),
  });
}
