import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { appFilesApi } from '@berth/contract';
import { api, apiDownload, apiFetch, buildUrl } from '../../../lib/api-client';
import { notifySuccess } from '../../../lib/notify';
import { useEnvironment } from '../../../lib/environment';
import { queryKeys } from '../../../lib/query-keys';

const dirQuery = (env: string, name: string, path: string) =>
  queryOptions({
    queryKey: queryKeys.appFiles.dir(env, name, path),
    queryFn: ({ signal }) => api(appFilesApi.list, { env, params: { name }, query: { path }, signal }),
  });

export const useFileListing = (name: string, path: string) => useQuery(dirQuery(useEnvironment(), name, path));

export const useFileContent = (name: string, path: string | null) => {
  const env = useEnvironment();
  return useQuery({
    queryKey: queryKeys.appFiles.content(env, name, path ?? ''),
    queryFn: ({ signal }) => api(appFilesApi.read, { env, params: { name }, query: { path: path! }, signal }),
    enabled: path !== null,
    // The editor shows the file as it was opened; a save writes the answer back.
    staleTime: Infinity,
    gcTime: 0,
    meta: { notifyError: false },
  });
};

/** Every write re-reads the folders shown (a write can add, change or remove an entry). */
function useFilesMutation<V, R>(name: string, fn: (v: V, env: string) => Promise<R>, done: (v: V) => string) {
  const env = useEnvironment();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (v: V) => fn(v, env),
    onSuccess: (_r, v) => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.appFiles.dirs(env, name) });
      notifySuccess(done(v));
    },
  });
}

export const useSaveFile = (name: string) =>
  useFilesMutation(
    name,
    ({ path, content }: { path: string; content: string }, env) =>
      api(appFilesApi.write, { env, params: { name }, query: { path }, body: { content } }),
    ({ path }) => `Saved ${path}.`,
  );

export const useUploadFiles = (name: string) =>
  useFilesMutation(
    name,
    async ({ dir, files }: { dir: string; files: File[] }, env) => {
      // One request per file: each is streamed to the engine as it arrives.
      for (const file of files) {
        const url = buildUrl(appFilesApi.upload, { env, params: { name }, query: { path: dir, name: file.name } });
        await apiFetch(url, { method: 'POST', body: file });
      }
    },
    ({ files, dir }) => `Uploaded ${files.length === 1 ? files[0]!.name : `${files.length} files`} to ${dir}.`,
  );

export const useMakeFolder = (name: string) =>
  useFilesMutation(
    name,
    (path: string, env) => api(appFilesApi.mkdir, { env, params: { name }, body: { path } }),
    (path) => `Made ${path}.`,
  );

export const useDeleteFile = (name: string) =>
  useFilesMutation(
    name,
    (path: string, env) => api(appFilesApi.remove, { env, params: { name }, query: { path } }),
    (path) => `Deleted ${path}.`,
  );

export const downloadFile = (env: string, name: string, path: string) =>
  apiDownload(
    appFilesApi.download,
    { env, params: { name }, query: { path } },
    `${path.split('/').pop() || 'root'}.tar`,
  );
