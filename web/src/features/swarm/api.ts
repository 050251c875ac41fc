import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  swarmApi,
  type NodeUpdateBody,
  type ServiceCreateBody,
  type ServiceUpdateBody,
  type SwarmObjectCreateBody,
} from '@berth/contract';
import { api } from '../../lib/api-client';
import { useEnvironment } from '../../lib/environment';
import { queryKeys } from '../../lib/query-keys';

export type SwarmObjectKind = 'configs' | 'secrets';

/** Swarm state moves on its own (tasks converge): lists refresh every few seconds while shown. */
const LIVE = 3000;

export const swarmInfoQuery = (env: string) =>
  queryOptions({
    queryKey: queryKeys.swarm.info(env),
    queryFn: ({ signal }) => api(swarmApi.info, { env, signal }),
    // The answer (a swarm, or 409 not_in_swarm) rarely changes.
    staleTime: 30_000,
  });

export const useSwarmInfo = () => useQuery(swarmInfoQuery(useEnvironment()));
export const useNodes = () => {
  const env = useEnvironment();
  return useQuery({
    queryKey: queryKeys.swarm.nodes(env),
    queryFn: ({ signal }) => api(swarmApi.nodes, { env, signal }),
    refetchInterval: LIVE,
  });
};
export const useServices = () => {
  const env = useEnvironment();
  return useQuery({
    queryKey: queryKeys.swarm.services(env),
    queryFn: ({ signal }) => api(swarmApi.services, { env, signal }),
    refetchInterval: LIVE,
  });
};
export const useService = (id: string) => {
  const env = useEnvironment();
  return useQuery({
    queryKey: queryKeys.swarm.service(env, id),
    queryFn: ({ signal }) => api(swarmApi.service, { env, params: { id }, signal }),
    refetchInterval: LIVE,
  });
};
export const useTasks = (id: string) => {
  const env = useEnvironment();
  return useQuery({
    queryKey: queryKeys.swarm.tasks(env, id),
    queryFn: ({ signal }) => api(swarmApi.tasks, { env, params: { id }, signal }),
    refetchInterval: LIVE,
  });
};
export const useStacks = () => {
  const env = useEnvironment();
  return useQuery({
    queryKey: queryKeys.swarm.stacks(env),
    queryFn: ({ signal }) => api(swarmApi.stacks, { env, signal }),
    refetchInterval: LIVE,
  });
};
export const useStack = (name: string | null) => {
  const env = useEnvironment();
  return useQuery({
    queryKey: queryKeys.swarm.stack(env, name ?? ''),
    queryFn: ({ signal }) => api(swarmApi.stack, { env, params: { name: name! }, signal }),
    enabled: name !== null,
  });
};
export const useSwarmObjects = (kind: SwarmObjectKind) => {
  const env = useEnvironment();
  const def = kind === 'configs' ? swarmApi.configs : swarmApi.secrets;
  return useQuery({ queryKey: queryKeys.swarm.objects(env, kind), queryFn: ({ signal }) => api(def, { env, signal }) });
};

/** Reads everything of this environment's swarm again (resolves once the shown lists are fresh). */
export const useRereadSwarm = () => {
  const queryClient = useQueryClient();
  const env = useEnvironment();
  return () => queryClient.invalidateQueries({ queryKey: queryKeys.swarm.all(env) });
};

/** A swarm mutation: afterwards everything of this environment's swarm is read again. */
function useSwarmMutation<V, R>(fn: (v: V, env: string) => Promise<R>, opts: { notifyError?: boolean } = {}) {
  const queryClient = useQueryClient();
  const env = useEnvironment();
  return useMutation({
    mutationFn: (v: V) => fn(v, env),
    ...(opts.notifyError === false ? { meta: { notifyError: false } } : {}),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: queryKeys.swarm.all(env) }),
  });
}

export const useUpdateNode = (opts: { notifyError?: boolean } = {}) =>
  useSwarmMutation(
    (v: { id: string; body: NodeUpdateBody }, env: string) =>
      api(swarmApi.updateNode, { env, params: { id: v.id }, body: v.body }),
    opts,
  );
export const useCreateService = () =>
  useSwarmMutation((body: ServiceCreateBody, env: string) => api(swarmApi.createService, { env, body }), {
    notifyError: false,
  });
/** `notifyError: false` where the form shows the failure itself. */
export const useUpdateService = (opts: { notifyError?: boolean } = {}) =>
  useSwarmMutation(
    (v: { id: string; body: ServiceUpdateBody }, env: string) =>
      api(swarmApi.updateService, { env, params: { id: v.id }, body: v.body }),
    opts,
  );
export const useRollbackService = () =>
  useSwarmMutation((id: string, env: string) => api(swarmApi.rollbackService, { env, params: { id } }));
export const useRemoveService = () =>
  useSwarmMutation((id: string, env: string) => api(swarmApi.removeService, { env, params: { id } }));
export const useDeployStack = () =>
  useSwarmMutation(
    (v: { name: string; content: string; existing: boolean }, env: string) =>
      v.existing
        ? api(swarmApi.redeployStack, { env, params: { name: v.name }, body: { content: v.content } })
        : api(swarmApi.deployStack, { env, body: { name: v.name, content: v.content } }),
    { notifyError: false },
  );
export const useRemoveStack = () =>
  useSwarmMutation((name: string, env: string) => api(swarmApi.removeStack, { env, params: { name } }));
export const useCreateSwarmObject = (kind: SwarmObjectKind) =>
  useSwarmMutation(
    (body: SwarmObjectCreateBody, env: string) =>
      api(kind === 'configs' ? swarmApi.createConfig : swarmApi.createSecret, { env, body }),
    { notifyError: false },
  );
export const useRemoveSwarmObject = (kind: SwarmObjectKind) =>
  useSwarmMutation((id: string, env: string) =>
    api(kind === 'configs' ? swarmApi.removeConfig : swarmApi.removeSecret, { env, params: { id } }),
  );
