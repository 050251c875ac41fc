import { useState } from 'react';
import { useMutation, useMutationState, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { appsApi, type App, type AppAction, type AppBatchAction } from '@berth/contract';
import { api, apiDownload } from '../../../lib/api-client';
import { notifyError, notifyInfo, notifySuccess } from '../../../lib/notify';
import { actionDoneText, busyText, ENDS_STREAMS } from '../model';
import { queryKeys } from '../../../lib/query-keys';
import { useEnvironment } from '../../../lib/environment';

export interface ActionVars {
  name: string;
  action: AppAction;
}

/** What an action touched: the list comes back in the answer; the app's own reads are re-read. */
function afterAction(queryClient: QueryClient, env: string, name: string, list: App[], action: AppAction | 'update') {
  queryClient.setQueryData(queryKeys.apps.list(env), list);
  if (action === 'remove') {
    // The app page stays mounted until the caller navigates away; removing its queries now would
    // make it fetch them again (a 404 each). Mark them stale only: they go once nobody observes them.
    for (const queryKey of [queryKeys.apps.detail(env, name), queryKeys.apps.processes(env, name)]) {
      void queryClient.cancelQueries({ queryKey });
      void queryClient.invalidateQueries({ queryKey, refetchType: 'none' });
    }
  } else {
    void queryClient.invalidateQueries({ queryKey: queryKeys.apps.detail(env, name) });
    void queryClient.invalidateQueries({ queryKey: queryKeys.apps.processes(env, name) });
  }
  if (action === 'update' || ENDS_STREAMS.includes(action)) clearLive(queryClient, env, name);
}

/** Whether this page removed the app (under way or done), so its reads must not be asked for again. */
export function removedHere(queryClient: QueryClient, env: string, name: string): boolean {
  return queryClient
    .getMutationCache()
    .findAll({ mutationKey: queryKeys.apps.action(env) })
    .some(
      (m) =>
        m.state.status !== 'error' &&
        (m.state.variables as ActionVars | undefined)?.name === name &&
        (m.state.variables as ActionVars).action === 'remove',
    );
}

/** Spec: stopping (or killing, removing) an app closes and clears its live logs and stats. */
export function clearLive(queryClient: QueryClient, env: string, name: string) {
  // Reset, not remove: a mounted view keeps observing the same entry and shows it empty.
  void queryClient.resetQueries({ queryKey: queryKeys.appsLive.logs(env, name), exact: true });
  void queryClient.resetQueries({ queryKey: queryKeys.appsLive.stats(env, name), exact: true });
}

/** start, stop, restart, kill, remove, pause, unpause. */
export function useAppAction() {
  const env = useEnvironment();
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: queryKeys.apps.action(env),
    mutationFn: ({ name, action }: ActionVars) => api(appsApi.action, { env, params: { name, action } }),
    onSuccess: (list, { name, action }) => {
      afterAction(queryClient, env, name, list, action);
      notifySuccess(actionDoneText(name, action));
    },
  });
}

/** Pull the image and recreate the app. */
export function useUpdateApp() {
  const env = useEnvironment();
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: queryKeys.apps.update(env),
    mutationFn: (name: string) => api(appsApi.update, { env, params: { name } }),
    onSuccess: (list, name) => {
      afterAction(queryClient, env, name, list, 'update');
      notifySuccess(actionDoneText(name, 'update'));
    },
  });
}

/** One action (or update) on many apps; the answer's list replaces the cached one. */
export function useAppBatch() {
  const env = useEnvironment();
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: queryKeys.apps.batch(env),
    mutationFn: (body: { action: AppBatchAction; names: string[] }) => api(appsApi.batch, { env, body }),
    // The selection bar shows the outcome.
    meta: { notifyError: false },
    onSuccess: ({ apps }, { action, names }) => {
      for (const name of names) afterAction(queryClient, env, name, apps, action);
    },
  });
}

/** The loading texts of every app action or update under way ('stop web ...', 'Updating web ...'). */
export function useAppBusyTexts(name?: string): string[] {
  const env = useEnvironment();
  const actions = useMutationState({
    filters: { mutationKey: queryKeys.apps.action(env), status: 'pending' },
    select: (m) => m.state.variables as ActionVars,
  });
  const updates = useMutationState({
    filters: { mutationKey: queryKeys.apps.update(env), status: 'pending' },
    select: (m) => m.state.variables as string,
  });
  return [
    ...actions.map((v) => ({ name: v.name, action: v.action })),
    ...updates.map((n) => ({ name: n, action: 'update' as const })),
  ]
    .filter((v) => name === undefined || v.name === name)
    .map((v) => busyText(v.name, v.action));
}

/** Asks the registry about every app, a few at a time, and marks the updatable ones in the list. */
export function useCheckUpdates() {
  const env = useEnvironment();
  const queryClient = useQueryClient();
  const [progress, setProgress] = useState<number | null>(null);
  const mutation = useMutation({
    mutationKey: queryKeys.apps.checkUpdates(env),
    mutationFn: async (names: string[]) => {
      let done = 0;
      const failed: string[] = [];
      const updatable: string[] = [];
      const newer: string[] = [];
      setProgress(0);
      const queue = [...names];
      const worker = async () => {
        for (let name = queue.shift(); name !== undefined; name = queue.shift()) {
          try {
            const check = await api(appsApi.checkUpdate, { env, params: { name } });
            if (check.isUpdatable) updatable.push(name);
            if (check.newerVersion) newer.push(`${name} (${check.newerVersion})`);
            markUpdatable(queryClient, env, name, check.isUpdatable, check.newerVersion ?? null);
          } catch (err) {
            console.warn(`update check of ${name} failed`, err);
            failed.push(name);
          }
          done += 1;
          setProgress(Math.round((done / Math.max(1, names.length)) * 100));
        }
      };
      // Each check asks the registry; three at a time keeps a long list quick without flooding it.
      await Promise.all(Array.from({ length: Math.min(3, names.length) }, worker));
      return { updatable, newer, failed };
    },
    onSuccess: ({ updatable, newer, failed }) => {
      notifyInfo(
        [
          updatable.length === 0 ? 'Every app is up to date.' : `Update available for ${updatable.join(', ')}.`,
          newer.length > 0 ? `Newer versions: ${newer.join(', ')}.` : '',
        ].join(' '),
      );
      if (failed.length > 0) notifyError(new Error(`Could not check ${failed.join(', ')}.`));
    },
    onSettled: () => setProgress(null),
  });
  return { ...mutation, progress };
}

function markUpdatable(
  queryClient: QueryClient,
  env: string,
  name: string,
  isUpdatable: boolean,
  newerVersion: string | null,
) {
  queryClient.setQueryData<App[]>(queryKeys.apps.list(env), (prev) =>
    prev?.map((a) => (a.name === name ? { ...a, isUpdatable, newerVersion } : a)),
  );
  queryClient.setQueryData<App>(queryKeys.apps.detail(env, name), (prev) =>
    prev ? { ...prev, isUpdatable, newerVersion } : prev,
  );
}

/** Downloads `{name}_bundle.zip` (log and redacted configuration). */
export function useSupportBundle() {
  const env = useEnvironment();
  return useMutation({
    mutationFn: (name: string) => apiDownload(appsApi.support, { env, params: { name } }, `${name}_bundle.zip`),
  });
}
