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
import { environmentsQuery } from '../environments';

export const swarmKeys = {
  all: (env: string) => ['swarm', env] as const,
  info: (env: string) => [...swarmKeys.all(env), 'info'] as const,
  nodes: (env: string) => [...swarmKeys.all(env), 'nodes'] as const,
  services: (env: string) => [...swarmKeys.all(env), 'services'] as const,
  service: (env: string, id: string) => [...swarmKeys.all(env), 'service', id] as const,
  tasks: (env: string, id: string) => [...swarmKeys.all(env), 'tasks', id] as const,
  stacks: (env: string) => [...swarmKeys.all(env), 'stacks'] as const,
  stack: (env: string, name: string) => [...swarmKeys.all(env), 'stack', name] as const,
  objects: (env: string, kind: SwarmObjectKind) => [...swarmKeys.all(env), kind] as const,
};
export type SwarmObjectKind = 'configs' | 'secrets';

/** Swarm state moves on its own (tasks converge): lists refresh every few seconds while shown. */
const LIVE = 3000;

export const swarmInfoQuery = (env: string) =>
  queryOptions({
    queryKey: swarmKeys.info(env),
    queryFn: ({ signal }) => api(swarmApi.info, { signal }),
    // The answer (a swarm, or 409 not_in_swarm) rarely changes.
    staleTime: 30_000,
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

export const useSwarmInfo = () => useQuery(swarmInfoQuery(useEnvironment()));
export const useNodes = () => {
  const env = useEnvironment();
  return useQuery({
    queryKey: swarmKeys.nodes(env),
    queryFn: ({ signal }) => api(swarmApi.nodes, { signal }),
    refetchInterval: LIVE,
  });
};
export const useServices = () => {
  const env = useEnvironment();
  return useQuery({
    queryKey: swarmKeys.services(env),
    queryFn: ({ signal }) => api(swarmApi.services, { signal }),
    refetchInterval: LIVE,
  });
};
export const useService = (id: string) => {
  const env = useEnvironment();
  return useQuery({
    queryKey: swarmKeys.service(env, id),
    queryFn: ({ signal }) => api(swarmApi.service, { params: { id }, signal }),
    refetchInterval: LIVE,
  });
};
export const useTasks = (id: string) => {
  const env = useEnvironment();
  return useQuery({
    queryKey: swarmKeys.tasks(env, id),
    queryFn: ({ signal }) => api(swarmApi.tasks, { params: { id }, signal }),
    refetchInterval: LIVE,
  });
};
export const useStacks = () => {
  const env = useEnvironment();
  return useQuery({
    queryKey: swarmKeys.stacks(env),
    queryFn: ({ signal }) => api(swarmApi.stacks, { signal }),
    refetchInterval: LIVE,
  });
};
export const useStack = (name: string | null) => {
  const env = useEnvironment();
  return useQuery({
    queryKey: swarmKeys.stack(env, name ?? ''),
    queryFn: ({ signal }) => api(swarmApi.stack, { params: { name: name! }, signal }),
    enabled: name !== null,
  });
};
export const useSwarmObjects = (kind: SwarmObjectKind) => {
  const env = useEnvironment();
  const def = kind === 'configs' ? swarmApi.configs : swarmApi.secrets;
  return useQuery({ queryKey: swarmKeys.objects(env, kind), queryFn: ({ signal }) => api(def, { signal }) });
};

/** Reads everything of this environment's swarm again (resolves once the shown lists are fresh). */
export const useRereadSwarm = () => {
  const queryClient = useQueryClient();
  const env = useEnvironment();
  return () => queryClient.invalidateQueries({ queryKey: swarmKeys.all(env) });
};

/** A swarm mutation: afterwards everything of this environment's swarm is read again. */
function useSwarmMutation<V, R>(fn: (v: V) => Promise<R>, opts: { notifyError?: boolean } = {}) {
  const queryClient = useQueryClient();
  const env = useEnvironment();
  return useMutation({
    mutationFn: fn,
    ...(opts.notifyError === false ? { meta: { notifyError: false } } : {}),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: swarmKeys.all(env) }),
  });
}

export const useUpdateNode = (opts: { notifyError?: boolean } = {}) =>
  useSwarmMutation(
    (v: { id: string; body: NodeUpdateBody }) => api(swarmApi.updateNode, { params: { id: v.id }, body: v.body }),
    opts,
  );
export const useCreateService = () =>
  useSwarmMutation((body: ServiceCreateBody) => api(swarmApi.createService, { body }), { notifyError: false });
/** `notifyError: false` where the form shows the failure itself. */
export const useUpdateService = (opts: { notifyError?: boolean } = {}) =>
  useSwarmMutation(
    (v: { id: string; body: ServiceUpdateBody }) => api(swarmApi.updateService, { params: { id: v.id }, body: v.body }),
    opts,
  );
export const useRollbackService = () =>
  useSwarmMutation((id: string) => api(swarmApi.rollbackService, { params: { id } }));
export const useRemoveService = () => useSwarmMutation((id: string) => api(swarmApi.removeService, { params: { id } }));
export const useDeployStack = () =>
  useSwarmMutation(
    (v: { name: string; content: string; existing: boolean }) =>
      v.existing
        ? api(swarmApi.redeployStack, { params: { name: v.name }, body: { content: v.content } })
        : api(swarmApi.deployStack, { body: { name: v.name, content: v.content } }),
    { notifyError: false },
  );
/** A stack template made into a stored stack (not deployed), opened in the stack editor next. */
export const useStackFromTemplate = () =>
  useSwarmMutation(
    (body: { item_id: number; name: string; env: Record<string, string> }) => api(swarmApi.stackFromTemplate, { body }),
    { notifyError: false },
  );
export const useRemoveStack = () => useSwarmMutation((name: string) => api(swarmApi.removeStack, { params: { name } }));
export const useCreateSwarmObject = (kind: SwarmObjectKind) =>
  useSwarmMutation(
    (body: SwarmObjectCreateBody) => api(kind === 'configs' ? swarmApi.createConfig : swarmApi.createSecret, { body }),
    { notifyError: false },
  );
export const useRemoveSwarmObject = (kind: SwarmObjectKind) =>
  useSwarmMutation((id: string) =>
    api(kind === 'configs' ? swarmApi.removeConfig : swarmApi.removeSecret, { params: { id } }),
  );
