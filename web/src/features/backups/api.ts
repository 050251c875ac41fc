import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import {
  backupsApi,
  type BackupRun,
  type NewBackupDestination,
  type NewBackupJob,
  type PatchBackupJob,
  type RestoreBody,
  type RestoreProgress,
  type RestoreResult,
} from '@berth/contract';
import { api, apiRaw } from '../../lib/api-client';
import { queryKeys } from '../../lib/query-keys';
import { followJob } from '../../lib/streamed-job';

const keys = queryKeys.backups;

export const jobsQuery = () =>
  queryOptions({ queryKey: keys.jobs(), queryFn: ({ signal }) => api(backupsApi.jobs, { signal }) });
export const destinationsQuery = () =>
  queryOptions({ queryKey: keys.destinations(), queryFn: ({ signal }) => api(backupsApi.destinations, { signal }) });
export const archivesQuery = () =>
  queryOptions({ queryKey: keys.archives(), queryFn: ({ signal }) => api(backupsApi.archives, { signal, query: {} }) });
export const runsQuery = () =>
  queryOptions({ queryKey: keys.runs(), queryFn: ({ signal }) => api(backupsApi.runs, { signal, query: {} }) });

/** Runs, archives and jobs' last runs change together: after any run, all of them are read again. */
function useInvalidateBackups() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: keys.all });
}

export function useSaveJob() {
  const invalidate = useInvalidateBackups();
  return useMutation({
    mutationFn: ({ id, body }: { id: number | null; body: NewBackupJob | PatchBackupJob }) =>
      id === null
        ? api(backupsApi.createJob, { body: body as NewBackupJob })
        : api(backupsApi.updateJob, { params: { id }, body }),
    meta: { notifyError: false },
    onSuccess: invalidate,
  });
}

export function useRemoveJob() {
  const invalidate = useInvalidateBackups();
  return useMutation({
    mutationFn: (id: number) => api(backupsApi.removeJob, { params: { id } }),
    onSuccess: invalidate,
  });
}

/** Back up now, a restore drill of a job's newest archive, or Verify now of one archive: each answers its finished run. */
export function useRunBackup() {
  const invalidate = useInvalidateBackups();
  return useMutation({
    mutationFn: ({ kind, id }: { kind: 'run' | 'drill' | 'verify'; id: number }): Promise<BackupRun> =>
      kind === 'run'
        ? api(backupsApi.runJob, { params: { id } })
        : kind === 'drill'
          ? api(backupsApi.drillJob, { params: { id } })
          : api(backupsApi.verifyArchive, { params: { id } }),
    onSettled: invalidate,
  });
}

export function useSaveDestination() {
  const invalidate = useInvalidateBackups();
  return useMutation({
    mutationFn: (body: NewBackupDestination) => api(backupsApi.createDestination, { body }),
    meta: { notifyError: false },
    onSuccess: invalidate,
  });
}

export function useRemoveDestination() {
  const invalidate = useInvalidateBackups();
  return useMutation({
    mutationFn: (id: number) => api(backupsApi.removeDestination, { params: { id } }),
    onSuccess: invalidate,
  });
}

export function useTestDestination() {
  return useMutation({ mutationFn: (id: number) => api(backupsApi.testDestination, { params: { id } }) });
}

/** Restores with the streamed variant of POST /api/backups/restore: progress goes to `onProgress`. */
export function useRestore(onProgress: (p: RestoreProgress) => void) {
  const queryClient = useQueryClient();
  const invalidateBackups = useInvalidateBackups();
  // A restore makes volumes (and a project's folder) in its environment: their lists are read again too.
  const invalidate = () =>
    Promise.all([
      invalidateBackups(),
      queryClient.invalidateQueries({ predicate: (q) => q.queryKey[1] === 'volumes' || q.queryKey[1] === 'projects' }),
    ]);
  return useMutation({
    mutationFn: async (body: RestoreBody): Promise<RestoreResult> =>
      followJob<RestoreResult>(
        await apiRaw(backupsApi.restore, { body, accept: 'text/event-stream' }),
        'Restore',
        (event, data) => {
          if (event === 'progress') onProgress(data as RestoreProgress);
        },
      ),
    meta: { notifyError: false },
    onSettled: invalidate,
  });
}
