import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { appsApi, deployApi, imageApi, networkApi, type DeployBody } from '@berth/contract';
import { api } from '../../lib/api-client';

export const deployKeys = {
  all: ['deploy'] as const,
  networks: () => [...deployKeys.all, 'networks'] as const,
  app: (name: string) => [...deployKeys.all, 'app', name] as const,
  image: (id: string) => [...deployKeys.all, 'image', id] as const,
};

/** Names of the engine's networks, for the Network select. */
export const networkNamesQuery = () =>
  queryOptions({
    queryKey: deployKeys.networks(),
    queryFn: async ({ signal }) => (await api(networkApi.list, { signal })).map((n) => n.Name).sort(),
  });

/** The app to edit, read fresh: the form must start from its current configuration. */
export const editAppQuery = (name: string) =>
  queryOptions({ queryKey: deployKeys.app(name), queryFn: ({ signal }) => api(appsApi.get, { params: { name }, signal }), staleTime: 0, gcTime: 0 });

/** The image's own run configuration, to tell apart what the user set from what the image supplies. */
export const imageConfigQuery = (id: string) =>
  queryOptions({
    queryKey: deployKeys.image(id),
    queryFn: async ({ signal }) => (await api(imageApi.get, { params: { id }, signal })).ContainerConfig,
    retry: false,
  });

/** Creates (or, with edit, replaces) an app; the app lists change, so every apps query is re-read. */
export function useDeploy() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: DeployBody) => api(deployApi.deploy, { body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['apps'] }),
  });
}
