import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { projectApi, templateApi, type Template } from '@berth/contract';
import { api } from '../../lib/api-client';

export const templateKeys = {
  all: ['templates'] as const,
  list: () => [...templateKeys.all, 'list'] as const,
  detail: (id: number) => [...templateKeys.all, 'detail', id] as const,
  item: (id: number) => [...templateKeys.all, 'item', id] as const,
};

export const templatesQuery = () =>
  queryOptions({ queryKey: templateKeys.list(), queryFn: ({ signal }) => api(templateApi.list, { signal }) });

export const templateQuery = (id: number) =>
  queryOptions({
    queryKey: templateKeys.detail(id),
    queryFn: ({ signal }) => api(templateApi.get, { params: { id }, signal }),
  });

/** One catalogue item as stored: `!variables` are not substituted (that happens at deploy time). */
export const templateItemQuery = (id: number) =>
  queryOptions({
    queryKey: templateKeys.item(id),
    queryFn: ({ signal }) => api(templateApi.item, { params: { id }, signal }),
    staleTime: 0,
  });

export function useCreateTemplate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { title: string; url: string }) => api(templateApi.create, { body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: templateKeys.list() }),
  });
}

/** Re-fetches the catalogue; its items (and their cards) change, so the whole template is re-read. */
export function useRefreshTemplate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api(templateApi.refresh, { params: { id } }),
    onSuccess: (_res, id) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: templateKeys.list() }),
        queryClient.invalidateQueries({ queryKey: templateKeys.detail(id) }),
      ]),
  });
}

export function useDeleteTemplate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api(templateApi.remove, { params: { id } }),
    onSuccess: (_res, id) => {
      queryClient.setQueryData<Template[]>(templateKeys.list(), (prev) => prev?.filter((t) => t.id !== id));
      queryClient.removeQueries({ queryKey: templateKeys.detail(id) });
      return queryClient.invalidateQueries({ queryKey: templateKeys.list() });
    },
  });
}

/** A stack template made into a compose project (not started); the project list is re-read. */
export function useProjectFromTemplate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { item_id: number; name: string; env: Record<string, string> }) =>
      api(projectApi.fromTemplate, { body }),
    // The dialog shows the failure where the user is looking.
    meta: { notifyError: false },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['projects'] }),
  });
}
