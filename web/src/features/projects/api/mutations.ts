import { useMutation, useMutationState, useQueryClient } from '@tanstack/react-query';
import { projectApi, type ActionResult, type ProjectAction, type ServiceAction } from '@berth/contract';
import { api, apiDownload } from '../../../lib/api-client';
import { notifySuccess } from '../../../lib/notify';
import { runningText, successText } from '../model';
import { queryKeys } from '../../../lib/query-keys';
import { useEnvironment } from '../../../lib/environment';
import type { ActionOutput } from '../../../lib/action-stream';

export interface ProjectActionVars {
  name: string;
  action: ProjectAction;
  /** Set for a one-service action (up, start, stop, restart, pull, kill, rm). */
  service?: string;
}

function callAction(env: string, { name, action, service }: ProjectActionVars): Promise<ActionResult> {
  if (service === undefined) return api(projectApi.action, { env, params: { name, action } });
  return api(projectApi.serviceAction, { env, params: { project: name, action: action as ServiceAction, service } });
}

/**
 * Runs a compose action. Spec: the project list is replaced by the answer and apps are re-read;
 * success says '{name} has been {action}ed.'
 */
export function useProjectAction() {
  const env = useEnvironment();
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: queryKeys.projects.action(env),
    mutationFn: (vars: ProjectActionVars) => callAction(env, vars),
    onSuccess: (result, { name, action, service }) => {
      queryClient.setQueryData(queryKeys.projects.list(env), result.projects);
      if (action === 'delete') queryClient.removeQueries({ queryKey: queryKeys.projects.detail(env, name) });
      else void queryClient.invalidateQueries({ queryKey: queryKeys.projects.detail(env, name) });
      void queryClient.invalidateQueries({ queryKey: queryKeys.apps.all(env) });
      // Cards that read the project's containers (auto-update's) change when containers come and go.
      void queryClient.invalidateQueries({ queryKey: queryKeys.autoUpdate.projects(env) });
      void queryClient.invalidateQueries({ queryKey: queryKeys.autoUpdate.apps(env) });
      notifySuccess(successText(service ?? name, action));
    },
    // The notification comes from the QueryClient's default; a failed action may still have changed the project.
    onError: (_err, { name }) => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.projects.detail(env, name) });
    },
  });
}

/** One compose action on many projects; the answer's list replaces the cached one and apps are re-read. */
export function useProjectBatch() {
  const env = useEnvironment();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { action: ProjectAction; names: string[] }) => api(projectApi.batch, { env, body }),
    // The selection bar shows the outcome.
    meta: { notifyError: false },
    onSuccess: (result, { names }) => {
      queryClient.setQueryData(queryKeys.projects.list(env), result.projects);
      for (const name of names) void queryClient.invalidateQueries({ queryKey: queryKeys.projects.detail(env, name) });
      void queryClient.invalidateQueries({ queryKey: queryKeys.apps.all(env) });
    },
  });
}

/** 'Running docker-compose {action} ...' for every action under way (of one project when named). */
export function useProjectBusyTexts(name?: string): string[] {
  const env = useEnvironment();
  const running = useMutationState({
    filters: { mutationKey: queryKeys.projects.action(env), status: 'pending' },
    select: (m) => m.state.variables as ProjectActionVars,
  });
  return running
    .filter((v) => name === undefined || v.name === name)
    .map((v) => runningText(v.service ? `${v.action} ${v.service}` : v.action));
}

/** Creates (new) or replaces a project's file; the server validates before it writes. */
export function useSaveProject() {
  const env = useEnvironment();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({
      name,
      content,
      isNew,
      dotenv,
    }: {
      name: string;
      content: string;
      isNew: boolean;
      /** A new project's .env text. */
      dotenv?: string;
    }) =>
      isNew
        ? api(projectApi.create, { env, body: { name, content, ...(dotenv ? { env: dotenv } : {}) } })
        : api(projectApi.edit, { env, params: { name }, body: { name, content } }),
    // The edit form shows a failed save in its own alert.
    meta: { notifyError: false },
    onSuccess: (_, { name }) => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.projects.list(env) });
      void queryClient.invalidateQueries({ queryKey: queryKeys.projects.detail(env, name) });
      // The last action's output was about the previous file: a save clears a finished one.
      queryClient.setQueryData<ActionOutput>(queryKeys.projectsLive.output(env, name), (prev) =>
        prev && !prev.running ? { ...prev, dismissed: true } : prev,
      );
    },
  });
}

/** Downloads `{name}_bundle.zip` (the compose file and each service's log). */
export function useProjectSupportBundle() {
  const env = useEnvironment();
  return useMutation({
    mutationFn: (name: string) => apiDownload(projectApi.support, { env, params: { name } }, `${name}_bundle.zip`),
  });
}
