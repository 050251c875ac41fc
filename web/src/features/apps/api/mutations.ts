import { useState } from 'react';
import { useMutation, useMutationState, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { appsApi, type App, type AppAction, type AppBatchAction } from '@berth/contract';
import { api, apiDownload } from '../../../lib/api-client';
import { notifyError, notifyInfo, notifySuccess } from '../../../lib/notify';
import { actionDoneText, busyText, ENDS_STREAMS } from '../model';
import { appKeys, liveKeys } from './keys';

const actionKey = [...appKeys.all, 'action'] as const;
const updateKey = [...appKeys.all, 'update'] as const;

export interface ActionVars {
  name: string;
  action: AppAction;
}

/** What an action touched: the list comes back in the answer; the app's own reads are re-read. */
function afterAction(queryClient: QueryClient, name: string, list: App[], action: AppAction | 'update') {
  queryClient.setQueryData(appKeys.list(), list);
  if (action === 'remove') {
    // The app page stays mounted until the caller navigates away; removing its queries now would
    // make it fetch them again (a 404 each). Mark them stale only: they go once nobody observes them.
    for (const queryKey of [appKeys.detail(name), appKeys.processes(name)]) {
      void queryClient.cancelQueries({ queryKey });
      void queryClient.invalidateQueries({ queryKey, refetchType: 'none' });
    }
  } else {
    void queryClient.invalidateQueries({ queryKey: appKeys.detail(name) });
    void queryClient.invalidateQueries({ queryKey: appKeys.processes(name) });
  }
  if (action === 'update' || ENDS_STREAMS.includes(action)) clearLive(queryClient, name);
}

/** Whether this page removed the app (under way or done), so its reads must not be asked for again. */
export function removedHere(queryClient: QueryClient, name: string): boolean {
  return queryClient
    .getMutationCache()
    .findAll({ mutationKey: actionKey })
    .some(
      (m) =>
        m.state.status !== 'error' &&
        (m.state.variables as ActionVars | undefined)?.name === name &&
        (m.state.variables as ActionVars).action === 'remove',
    );
}

/** Spec: stopping (or killing, removing) an app closes and clears its live logs and stats. */
export function clearLive(queryClient: QueryClient, name: string) {
  // Reset, not remove: a mounted view keeps observing the same entry and shows it empty.
  void queryClient.resetQueries({ queryKey: liveKeys.logs(name), exact: true });
  void queryClient.resetQueries({ queryKey: liveKeys.stats(name), exact: true });
}

/** start, stop, restart, kill, remove, pause, unpause. */
export function useAppAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: actionKey,
    mutationFn: ({ name, action }: ActionVars) => api(appsApi.action, { params: { name, action } }),
    onSuccess: (list, { name, action }) => {
      afterAction(queryClient, name, list, action);
      notifySuccess(actionDoneText(name, action));
    },
  });
}

/** Pull the image and recreate the app. */
export function useUpdateApp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: updateKey,
    mutationFn: (name: string) => api(appsApi.update, { params: { name } }),
    onSuccess: (list, name) => {
      afterAction(queryClient, name, list, 'update');
      notifySuccess(actionDoneText(name, 'update'));
    },
  });
}

/** One action (or update) on many apps; the answer's list replaces the cached one. */
export function useAppBatch() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [...appKeys.all, 'batch'],
    mutationFn: (body: { action: AppBatchAction; names: string[] }) => api(appsApi.batch, { body }),
    // The selection bar shows the outcome.
    meta: { notifyError: false },
    onSuccess: ({ apps }, { action, names }) => {
      for (const name of names) afterAction(queryClient, name, apps, action);
    },
  });
}

/** The loading texts of every app action or update under way ('stop web ...', 'Updating web ...'). */
export function useAppBusyTexts(name?: string): string[] {
  const actions = useMutationState({
    filters: { mutationKey: actionKey, status: 'pending' },
    select: (m) => m.state.variables as ActionVars,
  });
  const updates = useMutationState({
    filters: { mutationKey: updateKey, status: 'pending' },
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
  const queryClient = useQueryClient();
  const [progress, setProgress] = useState<number | null>(null);
  const mutation = useMutation({
    mutationKey: [...appKeys.all, 'check-updates'],
    mutationFn: async (names: string[]) => {
      let done = 0;
      const failed: string[] = [];
      const updatable: string[] = [];
      setProgress(0);
      const queue = [...names];
      const worker = async () => {
        for (let name = queue.shift(); name !== undefined; name = queue.shift()) {
          try {
            const check = await api(appsApi.checkUpdate, { params: { name } });
            if (check.isUpdatable) updatable.push(name);
            markUpdatable(queryClient, name, check.isUpdatable);
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
      return { updatable, failed };
    },
    onSuccess: ({ updatable, failed }) => {
      notifyInfo(updatable.length === 0 ? 'Every app is up to date.' : `Update available for ${updatable.join(', ')}.`);
      if (failed.length > 0) notifyError(new Error(`Could not check ${failed.join(', ')}.`));
    },
    onSettled: () => setProgress(null),
  });
  return { ...mutation, progress };
}

function markUpdatable(queryClient: QueryClient, name: string, isUpdatable: boolean) {
  queryClient.setQueryData<App[]>(appKeys.list(), (prev) =>
    prev?.map((a) => (a.name === name ? { ...a, isUpdatable } : a)),
  );
  queryClient.setQueryData<App>(appKeys.detail(name), (prev) => (prev ? { ...prev, isUpdatable } : prev));
}

/** Downloads `{name}_bundle.zip` (log and redacted configuration). */
export function useSupportBundle() {
  return useMutation({
    mutationFn: (name: string) => apiDownload(appsApi.support, { params: { name } }, `${name}_bundle.zip`),
  });
}
