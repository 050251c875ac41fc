import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { appFilesApi, volumeFilesApi } from '@berth/contract';
import { api, apiDownload, apiFetch, ApiError, buildUrl } from '../../lib/api-client';
import { notifySuccess } from '../../lib/notify';
import { useEnvironment } from '../../lib/environment';
import { queryKeys } from '../../lib/query-keys';

/** Whose files: an app's container or a volume (the same routes under another path). */
export interface FilesTarget {
  kind: 'apps' | 'volumes';
  name: string;
}

/** The routes of a target's files (a volume's take a volume name where an app's take an app's: same shapes). */
export const filesApi = (kind: FilesTarget['kind']): typeof appFilesApi =>
  kind === 'apps' ? appFilesApi : (volumeFilesApi as unknown as typeof appFilesApi);

const dirQuery = (env: string, { kind, name }: FilesTarget, path: string) =>
  queryOptions({
    queryKey: queryKeys.files.dir(env, kind, name, path),
    queryFn: ({ signal }) => api(filesApi(kind).list, { env, params: { name }, query: { path }, signal }),
    meta: { notifyError: false },
  });

export const useFileListing = (target: FilesTarget, path: string) => useQuery(dirQuery(useEnvironment(), target, path));

/**
 * Where a symlink leads, asked of the server (which follows it only inside the container or
 * volume): a folder lists, anything else answers 400 and is opened as a file.
 */
export function useLinkKind(target: FilesTarget): (path: string) => Promise<'folder' | 'file'> {
  const env = useEnvironment();
  const queryClient = useQueryClient();
  return async (path) => {
    try {
      await queryClient.fetchQuery(dirQuery(env, target, path));
      return 'folder';
    } catch (err) {
      if (err instanceof ApiError && err.status === 400) return 'file';
      throw err;
    }
  };
}

export const useFileContent = ({ kind, name }: FilesTarget, path: string | null) => {
  const env = useEnvironment();
  return useQuery({
    queryKey: queryKeys.files.content(env, kind, name, path ?? ''),
    queryFn: ({ signal }) => api(filesApi(kind).read, { env, params: { name }, query: { path: path! }, signal }),
    enabled: path !== null,
    // The editor shows the file as it was opened; a save writes the answer back.
    staleTime: Infinity,
    gcTime: 0,
    meta: { notifyError: false },
  });
};

/** Every write re-reads the folders shown (a write can add, change or remove an entry). */
function useFilesMutation<V, R>(
  { kind, name }: FilesTarget,
  fn: (v: V, env: string, routes: typeof appFilesApi) => Promise<R>,
  done: (v: V) => string,
) {
  const env = useEnvironment();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (v: V) => fn(v, env, filesApi(kind)),
    onSuccess: (_r, v) => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.files.dirs(env, kind, name) });
      notifySuccess(done(v));
    },
  });
}

export const useSaveFile = (target: FilesTarget) =>
  useFilesMutation(
    target,
    ({ path, content }: { path: string; content: string }, env, routes) =>
      api(routes.write, { env, params: { name: target.name }, query: { path }, body: { content } }),
    ({ path }) => `Saved ${path}.`,
  );

export const useUploadFiles = (target: FilesTarget) =>
  useFilesMutation(
    target,
    async ({ dir, files }: { dir: string; files: File[] }, env, routes) => {
      // One request per file: each is streamed to the engine as it arrives.
      for (const file of files) {
        const url = buildUrl(routes.upload, {
          env,
          params: { name: target.name },
          query: { path: dir, name: file.name },
        });
        await apiFetch(url, { method: 'POST', body: file });
      }
    },
    ({ files, dir }) => `Uploaded ${files.length === 1 ? files[0]!.name : `${files.length} files`} to ${dir}.`,
  );

export const useMakeFolder = (target: FilesTarget) =>
  useFilesMutation(
    target,
    (path: string, env, routes) => api(routes.mkdir, { env, params: { name: target.name }, body: { path } }),
    (path) => `Made ${path}.`,
  );

export const useDeleteFile = (target: FilesTarget) =>
  useFilesMutation(
    target,
    (path: string, env, routes) => api(routes.remove, { env, params: { name: target.name }, query: { path } }),
    (path) => `Deleted ${path}.`,
  );

export const downloadFile = (env: string, { kind, name }: FilesTarget, path: string) =>
  apiDownload(
    filesApi(kind).download,
    { env, params: { name }, query: { path } },
    `${path.split('/').pop() || (kind === 'volumes' ? name : 'root')}.tar`,
  );
