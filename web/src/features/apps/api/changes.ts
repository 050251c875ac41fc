import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { appChangesApi, type App, type AppResourcesBody } from '@berth/contract';
import { api } from '../../../lib/api-client';
import { notifySuccess } from '../../../lib/notify';
import { useEnvironment } from '../../../lib/environment';
import { queryKeys } from '../../../lib/query-keys';

/** An in-place change answers with the app as it is now: it replaces the cached detail; the list is read again. */
function changed(queryClient: QueryClient, env: string, app: App) {
  queryClient.setQueryData(queryKeys.apps.detail(env, app.name), app);
  void queryClient.invalidateQueries({ queryKey: queryKeys.apps.list(env) });
}

export function useRenameApp() {
  const env = useEnvironment();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ name, newName }: { name: string; newName: string }) =>
      api(appChangesApi.rename, { env, params: { name }, body: { new_name: newName } }),
    onSuccess: (app, { name }) => {
      queryClient.removeQueries({ queryKey: queryKeys.apps.detail(env, name), exact: true });
      changed(queryClient, env, app);
      notifySuccess(`${name} is now ${app.name}.`);
    },
  });
}

export function useAppResources(name: string) {
  const env = useEnvironment();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: AppResourcesBody) => api(appChangesApi.resources, { env, params: { name }, body }),
    onSuccess: (app) => {
      changed(queryClient, env, app);
      notifySuccess(`Resources of ${name} changed.`);
    },
  });
}

export function useNetworkLink(name: string) {
  const env = useEnvironment();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ network, connect, aliases }: { network: string; connect: boolean; aliases?: string[] }) =>
      connect
        ? api(appChangesApi.connect, { env, params: { name, network }, body: aliases?.length ? { aliases } : {} })
        : api(appChangesApi.disconnect, { env, params: { name, network }, body: {} }),
    onSuccess: (app, { network, connect }) => {
      changed(queryClient, env, app);
      notifySuccess(`${name} ${connect ? 'connected to' : 'disconnected from'} ${network}.`);
    },
  });
}

export function useCommitApp(name: string) {
  const env = useEnvironment();
  return useMutation({
    mutationFn: (body: { repo: string; tag: string; comment: string }) =>
      api(appChangesApi.commit, { env, params: { name }, body }),
    onSuccess: (res) => notifySuccess(`Committed ${name} as ${res.image}.`),
  });
}
