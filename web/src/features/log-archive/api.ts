import { queryOptions, useQuery } from '@tanstack/react-query';
import { logArchiveApi } from '@berth/contract';
import { api, buildUrl } from '../../lib/api-client';
import { useEnvironment } from '../../lib/environment';
import { queryKeys } from '../../lib/query-keys';
import type { LogQuery } from '../../components/logs';

export const logArchivesQuery = (env: string, name: string) =>
  queryOptions({
    queryKey: queryKeys.apps.logArchives(env, name),
    queryFn: ({ signal }) => api(logArchiveApi.list, { env, params: { name }, signal }),
  });

/** The kept logs of an app's earlier containers (also after the app was removed). */
export const useLogArchives = (name: string) => useQuery(logArchivesQuery(useEnvironment(), name));

/** The stream and download addresses of one kept log, as the log view takes them. */
export function archiveUrls(env: string, name: string, id: number) {
  const params = { name, id: String(id) };
  return {
    stream: (query: LogQuery) => buildUrl(logArchiveApi.read, { env, params, query }),
    download: (query: LogQuery) => buildUrl(logArchiveApi.download, { env, params, query }),
  };
}
