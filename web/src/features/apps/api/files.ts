import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { appFilesApi } from '@berth/contract';
import { api, apiDownload, apiFetch, buildUrl } from '../../../lib/api-client';
import { notifySuccess } from '../../../lib/notify';
import { appKeys } from './keys';

const fileKeys = {
  all: (name: string) => [...appKeys.all, 'files', name] as const,
  dir: (name: string, path: string) => [...fileKeys.all(name), 'dir', path] as const,
  content: (name: string, path: string) => [...fileKeys.all(name), 'content', path] as const,
};

const dirQuery = (name: string, path: string) =>
  queryOptions({
    queryKey: fileKeys.dir(name, path),
    queryFn: ({ signal }) => api(appFilesApi.list, { params: { name }, query: { path }, signal }),
  });

export const useFileListing = (name: string, path: string) => useQuery(dirQuery(name, path));

export const useFileContent = (name: string, path: string | null) =>
  useQuery({
    queryKey: fileKeys.content(name, path ?? ''),
    queryFn: ({ signal }) => api(appFilesApi.read, { params: { name }, query: { path: path! }, signal }),
    enabled: path !== null,
    // The editor shows the file as it was opened; a save writes the answer back.
    staleTime: Infinity,
    gcTime: 0,
    meta: { notifyError: false },
  });

/** Every write re-reads the folders shown (a write can add, change or remove an entry). */
function useFilesMutation<V, R>(name: string, fn: (v: V) => Promise<R>, done: (v: V) => string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: (_r, v) => {
      void queryClient.invalidateQueries({ queryKey: [...fileKeys.all(name), 'dir'] });
      notifySuccess(done(v));
    },
  });
}

export const useSaveFile = (name: string) =>
  useFilesMutation(
    name,
    ({ path, content }: { path: string; content: string }) =>
      api(appFilesApi.write, { params: { name }, query: { path }, body: { content } }),
    ({ path }) => `Saved ${path}.`,
  );

export const useUploadFiles = (name: string) =>
  useFilesMutation(
    name,
    async ({ dir, files }: { dir: string; files: File[] }) => {
      // One request per file: each is streamed to the engine as it arrives.
      for (const file of files) {
        const url = buildUrl(appFilesApi.upload, { name }, { path: dir, name: file.name });
        await apiFetch(url, { method: 'POST', body: file });
      }
    },
    ({ files, dir }) => `Uploaded ${files.length === 1 ? files[0]!.name : `${files.length} files`} to ${dir}.`,
  );

export const useMakeFolder = (name: string) =>
  useFilesMutation(
    name,
    (path: string) => api(appFilesApi.mkdir, { params: { name }, body: { path } }),
    (path) => `Made ${path}.`,
  );

export const useDeleteFile = (name: string) =>
  useFilesMutation(
    name,
    (path: string) => api(appFilesApi.remove, { params: { name }, query: { path } }),
    (path) => `Deleted ${path}.`,
  );

export const downloadFile = (name: string, path: string) =>
  apiDownload(appFilesApi.download, { params: { name }, query: { path } }, `${path.split('/').pop() || 'root'}.tar`);
