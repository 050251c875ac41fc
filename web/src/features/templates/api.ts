import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { projectApi, swarmApi, templateApi, type Template } from '@berth/contract';
import { api } from '../../lib/api-client';
import { queryKeys } from '../../lib/query-keys';
import { useEnvironment } from '../../lib/environment';

export const templatesQuery = () =>
  queryOptions({ queryKey: queryKeys.templates.list(), queryFn: ({ signal }) => api(templateApi.list, { signal }) });

export const templateQuery = (id: number) =>
  queryOptions({
    queryKey: queryKeys.templates.detail(id),
    queryFn: ({ signal }) => api(templateApi.get, { params: { id }, signal }),
  });

/** One catalogue item as stored: `!variables` are not substituted (that happens at deploy time). */
export const templateItemQuery = (id: number) =>
  queryOptions({
    queryKey: queryKeys.templates.item(id),
    queryFn: ({ signal }) => api(templateApi.item, { params: { id }, signal }),
    staleTime: 0,
  });

export function useCreateTemplate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { title: string; url: string }) => api(templateApi.create, { body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.templates.list() }),
  });
}

/** Re-fetches the catalogue; its items (and their cards) change, so the whole template is re-read. */
export function useRefreshTemplate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api(templateApi.refresh, { params: { id } }),
    onSuccess: (_res, id) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.templates.list() }),
        queryClient.invalidateQueries({ queryKey: queryKeys.templates.detail(id) }),
      ]),
  });
}

export function useDeleteTemplate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api(templateApi.remove, { params: { id } }),
    onSuccess: (_res, id) => {
      queryClient.setQueryData<Template[]>(queryKeys.templates.list(), (prev) => prev?.filter((t) => t.id !== id));
      queryClient.removeQueries({ queryKey: queryKeys.templates.detail(id) });
      return queryClient.invalidateQueries({ queryKey: queryKeys.templates.list() });
    },
  });
}

/** A stack template made into a compose project (not started); the project list is re-read. */
export function useProjectFromTemplate() {
  const env = useEnvironment();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { item_id: number; name: string; env: Record<string, string> }) =>
      api(projectApi.fromTemplate, { env, body }),
    // The dialog shows the failure where the user is looking.
    meta: { notifyError: false },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.projects.all(env) }),
  });
}

/** A stack template made into a stored swarm stack (not deployed), opened in the stack editor next. */
export function useStackFromTemplate() {
  const env = useEnvironment();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { item_id: number; name: string; env: Record<string, string> }) =>
      api(swarmApi.stackFromTemplate, { env, body }),
    meta: { notifyError: false },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.swarm.all(env) }),
  });
}
