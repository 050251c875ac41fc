import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { deployApi, type DeployBody } from '@berth/contract';
import { api } from '../../lib/api-client';
import { appKeys, appQuery } from '../apps';
import { imageQuery } from '../images';
import { networksQuery } from '../networks';

/** Names of the engine's networks, for the Network select (shares the networks list cache). */
export const networkNamesQuery = () =>
  queryOptions({ ...networksQuery(), select: (list) => list.map((n) => n.Name).sort() });

/** The app to edit, read fresh: the form must start from its current configuration. */
export const editAppQuery = (name: string) => queryOptions({ ...appQuery(name), staleTime: 0 });

/** The image's own run configuration, to tell apart what the user set from what the image supplies. */
export const imageConfigQuery = (id: string) =>
  queryOptions({ ...imageQuery(id), select: (image) => image.ContainerConfig, retry: false });

/** Creates (or, with edit, replaces) an app; every apps query is re-read. */
export function useDeploy() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: DeployBody) => api(deployApi.deploy, { body }),
    // The deploy form shows the failure in a notification that stays until closed.
    meta: { notifyError: false },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: appKeys.all }),
  });
}
