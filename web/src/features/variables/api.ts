import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { variablesApi, type TemplateVariable } from '@berth/contract';
import { api } from '../../lib/api-client';
import { queryKeys } from '../../lib/query-keys';

export const variablesQuery = () =>
  queryOptions({ queryKey: queryKeys.variables.all, queryFn: ({ signal }) => api(variablesApi.list, { signal }) });

/** Saves the whole list (the server replaces it) and keeps the answer as the cached list. */
export function useSaveVariables() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (rows: TemplateVariable[]) => api(variablesApi.save, { body: rows }),
    onSuccess: (rows) => queryClient.setQueryData(queryKeys.variables.all, rows),
  });
}
