import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { appChangesApi, type App, type AppResourcesBody } from '@berth/contract';
import { api } from '../../../lib/api-client';
import { notifySuccess } from '../../../lib/notify';
import { appKeys } from './keys';

/** An in-place change answers with the app as it is now: it replaces the cached detail; the list is read again. */
function changed(queryClient: QueryClient, app: App) {
  queryClient.setQueryData(appKeys.detail(app.name), app);
  void queryClient.invalidateQueries({ queryKey: appKeys.list() });
}

export function useRenameApp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ name, newName }: { name: string; newName: string }) =>
      api(appChangesApi.rename, { params: { name }, body: { new_name: newName } }),
    onSuccess: (app, { name }) => {
      queryClient.removeQueries({ queryKey: appKeys.detail(name), exact: true });
      changed(queryClient, app);
      notifySuccess(`${name} is now ${app.name}.`);
    },
  });
}

export function useAppResources(name: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: AppResourcesBody) => api(appChangesApi.resources, { params: { name }, body }),
    onSuccess: (app) => {
      changed(queryClient, app);
      notifySuccess(`Resources of ${name} changed.`);
    },
  });
}

export function useNetworkLink(name: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ network, connect, aliases }: { network: string; connect: boolean; aliases?: string[] }) =>
      connect
        ? api(appChangesApi.connect, { params: { name, network }, body: aliases?.length ? { aliases } : {} })
        : api(appChangesApi.disconnect, { params: { name, network }, body: {} }),
    onSuccess: (app, { network, connect }) => {
      changed(queryClient, app);
      notifySuccess(`${name} ${connect ? 'connected to' : 'disconnected from'} ${network}.`);
    },
  });
}

export function useCommitApp(name: string) {
  return useMutation({
    mutationFn: (body: { repo: string; tag: string; comment: string }) =>
      api(appChangesApi.commit, { params: { name }, body }),
    onSuccess: (res) => notifySuccess(`Committed ${name} as ${res.image}.`),
  });
}
