import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  appsApi,
  environmentApi,
  type EnvironmentPatchBody,
  type NewAgentEnvironmentBody,
  type NewEnvironmentBody,
} from '@berth/contract';
import { api } from '../../lib/api-client';
import { useEnvironment } from '../../lib/environment';
import { queryKeys } from '../../lib/query-keys';

/** Every environment with its last known status; the server's watch keeps it fresh, so a poll suffices. */
export const environmentsQuery = () =>
  queryOptions({
    queryKey: queryKeys.environments.list(),
    queryFn: ({ signal }) => api(environmentApi.list, { signal }),
    // Faster while an agent environment waits for its agent, so it turns green soon after it dials in.
    refetchInterval: (q) => (q.state.data?.some((e) => e.kind === 'agent' && !e.agent?.connected) ? 3_000 : 15_000),
    staleTime: 2_000,
  });

/**
 * Whether the selected environment's engine is a swarm manager (the sidebar shows Swarm only then),
 * from the environments' status, so no page asks /api/swarm of an engine that is not in a swarm.
 */
export function useIsSwarmManager(): boolean {
  const env = useEnvironment();
  const list = useQuery(environmentsQuery());
  return list.data?.find((e) => e.id === env)?.status.swarm_role === 'manager';
}

/** The apps list of one named environment, whichever is selected (the dashboard's all-environments view). */
export const environmentAppsQuery = (id: string) =>
  queryOptions({
    queryKey: queryKeys.apps.list(id),
    queryFn: ({ signal }) => api(appsApi.list, { env: id, signal }),
    refetchInterval: 15_000,
  });

export function useCreateEnvironment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: NewEnvironmentBody) => api(environmentApi.create, { body }),
    meta: { notifyError: false },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.environments.all }),
  });
}

export function useUpdateEnvironment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: EnvironmentPatchBody }) =>
      api(environmentApi.update, { params: { env: id }, body }),
    meta: { notifyError: false },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.environments.all }),
  });
}

export function useRemoveEnvironment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api(environmentApi.remove, { params: { env: id } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.environments.all }),
  });
}

export function useTestEnvironment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api(environmentApi.test, { params: { env: id } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.environments.list() }),
  });
}

/** Adds an agent environment; the answer's token and commands are shown once. */
export function useCreateAgentEnvironment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: NewAgentEnvironmentBody) => api(environmentApi.createAgent, { body }),
    meta: { notifyError: false },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.environments.all }),
  });
}

/** A new enrolment token for an agent environment (its current agent is revoked). */
export function useAgentToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api(environmentApi.agentToken, { params: { env: id } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.environments.all }),
  });
}

export function useRevokeAgent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api(environmentApi.agentRevoke, { params: { env: id } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.environments.all }),
  });
}
