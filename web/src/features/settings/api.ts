import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { settingsApi, templateApi, variablesApi } from '@berth/contract';
import { api, apiDownload } from '../../lib/api-client';
import { queryKeys } from '../../lib/query-keys';

/** '1 template' / '2 templates'. */
export const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** What an import would replace: how many template sources and variables the server holds now (read when asked). */
export function useImportTargets(enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.settings.importTargets(),
    queryFn: async ({ signal }) => {
      const [templates, variables] = await Promise.all([
        api(templateApi.list, { signal }),
        api(variablesApi.list, { signal }),
      ]);
      return { templates: templates.length, variables: variables.length };
    },
    enabled,
    staleTime: 0,
  });
}

export const serverInfoQuery = () =>
  queryOptions({
    queryKey: queryKeys.settings.info(),
    queryFn: ({ signal }) => api(settingsApi.info, { signal }),
    staleTime: 60_000,
  });

/** Asks the registry, so it is read once a minute at most. */
export const updateCheckQuery = () =>
  queryOptions({
    queryKey: queryKeys.settings.updateCheck(),
    queryFn: ({ signal }) => api(settingsApi.updateStatus, { signal }),
    staleTime: 60_000,
  });

/** Spec rule for the import field: a file is required and must be .json. */
export function importFileError(file: File | null): string | null {
  if (!file) return 'Required.';
  return /\.json$/i.test(file.name) ? null : 'Must be a .json file.';
}

export const exportSettings = () => apiDownload(settingsApi.export, {}, 'berth-settings.json');

/** The import replaces every template and variable, so everything cached about them is stale. */
export function useImportSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ file, currentPassword }: { file: File; currentPassword: string }) => {
      const body = new FormData();
      body.append('current_password', currentPassword);
      body.append('upload', file);
      return api(settingsApi.import, { body });
    },
    onSuccess: () => queryClient.invalidateQueries(),
  });
}

export function useSelfUpdate() {
  return useMutation({
    mutationFn: (currentPassword: string) => api(settingsApi.update, { body: { current_password: currentPassword } }),
  });
}
