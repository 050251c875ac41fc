import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { deployApi, type DeployBody } from '@berth/contract';
import { api } from '../../lib/api-client';
import { appQuery } from '../apps';
import { imageQuery } from '../images';
import { networksQuery } from '../networks';
import { queryKeys } from '../../lib/query-keys';
import { useEnvironment } from '../../lib/environment';

/** Names of the engine's networks, for the Network select (shares the networks list cache). */
export const networkNamesQuery = (env: string) =>
  queryOptions({ ...networksQuery(env), select: (list) => list.map((n) => n.Name).sort() });

/** The app to edit, read fresh: the form must start from its current configuration. */
export const editAppQuery = (env: string, name: string) => queryOptions({ ...appQuery(env, name), staleTime: 0 });

/** The image's own run configuration, to tell apart what the user set from what the image supplies. */
export const imageConfigQuery = (env: string, id: string) =>
  queryOptions({ ...imageQuery(env, id), select: (image) => image.ContainerConfig, retry: false });

/** Creates (or, with edit, replaces) an app; every apps query is re-read. */
export function useDeploy() {
  const env = useEnvironment();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: DeployBody) => api(deployApi.deploy, { env, body }),
    // The deploy form shows the failure in a notification that stays until closed.
    meta: { notifyError: false },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.apps.all(env) }),
  });
}
