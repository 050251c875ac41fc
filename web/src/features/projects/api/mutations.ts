import { useMutation, useMutationState, useQueryClient } from '@tanstack/react-query';
import { projectApi, type ActionResult, type ProjectAction, type ServiceAction } from '@berth/contract';
import { api, apiDownload } from '../../../lib/api-client';
import { notifySuccess } from '../../../lib/notify';
import { runningText, successText } from '../model';
import { autoUpdateKeys } from '../../auto-update';
import { projectKeys, projectLiveKeys } from './keys';
import type { ActionOutput } from './live';

const actionKey = [...projectKeys.all, 'action'] as const;

export interface ProjectActionVars {
  name: string;
  action: ProjectAction;
  /** Set for a one-service action (up, start, stop, restart, pull, kill, rm). */
  service?: string;
}

function callAction({ name, action, service }: ProjectActionVars): Promise<ActionResult> {
  if (service === undefined) return api(projectApi.action, { params: { name, action } });
  return api(projectApi.serviceAction, { params: { project: name, action: action as ServiceAction, service } });
}

/**
 * Runs a compose action. Spec: the project list is replaced by the answer and apps are re-read;
 * success says '{name} has been {action}ed.'
 */
export function useProjectAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: actionKey,
    mutationFn: callAction,
    onSuccess: (result, { name, action, service }) => {
      queryClient.setQueryData(projectKeys.list(), result.projects);
      if (action === 'delete') queryClient.removeQueries({ queryKey: projectKeys.detail(name) });
      else void queryClient.invalidateQueries({ queryKey: projectKeys.detail(name) });
      void queryClient.invalidateQueries({ queryKey: ['apps'] });
      // Cards that read the project's containers (auto-update's) change when containers come and go.
      void queryClient.invalidateQueries({ queryKey: autoUpdateKeys.all });
      notifySuccess(successText(service ?? name, action));
    },
    // The notification comes from the QueryClient's default; a failed action may still have changed the project.
    onError: (_err, { name }) => {
      void queryClient.invalidateQueries({ queryKey: projectKeys.detail(name) });
    },
  });
}

/** One compose action on many projects; the answer's list replaces the cached one and apps are re-read. */
export function useProjectBatch() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { action: ProjectAction; names: string[] }) => api(projectApi.batch, { body }),
    // The selection bar shows the outcome.
    meta: { notifyError: false },
    onSuccess: (result, { names }) => {
      queryClient.setQueryData(projectKeys.list(), result.projects);
      for (const name of names) void queryClient.invalidateQueries({ queryKey: projectKeys.detail(name) });
      void queryClient.invalidateQueries({ queryKey: ['apps'] });
    },
  });
}

/** 'Running docker-compose {action} ...' for every action under way (of one project when named). */
export function useProjectBusyTexts(name?: string): string[] {
  const running = useMutationState({
    filters: { mutationKey: actionKey, status: 'pending' },
    select: (m) => m.state.variables as ProjectActionVars,
  });
  return running
    .filter((v) => name === undefined || v.name === name)
    .map((v) => runningText(v.service ? `${v.action} ${v.service}` : v.action));
}

/** Creates (new) or replaces a project's file; the server validates before it writes. */
export function useSaveProject() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ name, content, isNew }: { name: string; content: string; isNew: boolean }) =>
      isNew
        ? api(projectApi.create, { body: { name, content } })
        : api(projectApi.edit, { params: { name }, body: { name, content } }),
    // The edit form shows a failed save in its own alert.
    meta: { notifyError: false },
    onSuccess: (_, { name }) => {
      void queryClient.invalidateQueries({ queryKey: projectKeys.list() });
      void queryClient.invalidateQueries({ queryKey: projectKeys.detail(name) });
      // The last action's output was about the previous file: a save clears a finished one.
      queryClient.setQueryData<ActionOutput>(projectLiveKeys.output(name), (prev) =>
        prev && !prev.running ? { ...prev, dismissed: true } : prev,
      );
    },
  });
}

/** Downloads `{name}_bundle.zip` (the compose file and each service's log). */
export function useProjectSupportBundle() {
  return useMutation({
    mutationFn: (name: string) => apiDownload(projectApi.support, { params: { name } }, `${name}_bundle.zip`),
  });
}
