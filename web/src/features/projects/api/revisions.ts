import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { revisionsApi } from '@berth/contract';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { useEnvironment } from '../../../lib/environment';

/** A project's recorded deploys, newest first. */
export const projectRevisionsQuery = (env: string, name: string) =>
  queryOptions({
    queryKey: queryKeys.projects.revisions(env, name),
    queryFn: ({ signal }) => api(revisionsApi.projectList, { env, params: { name }, signal }),
  });

export const useProjectRevisions = (name: string) => useQuery(projectRevisionsQuery(useEnvironment(), name));

/** What changed from revision `a` to `b` (null: nothing picked yet). */
export function useRevisionDiff(name: string, pair: [number, number] | null) {
  const env = useEnvironment();
  const [a, b] = pair ?? [0, 0];
  return useQuery({
    queryKey: queryKeys.projects.revisionDiff(env, name, a, b),
    queryFn: ({ signal }) => api(revisionsApi.projectDiff, { env, params: { name, a, b }, signal }),
    enabled: pair !== null,
  });
}

/** Rolls the project back to `rev` (`dry_run`: only the plan, for the confirmation). */
export function useProjectRollback(name: string) {
  const env = useEnvironment();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ rev, dry_run }: { rev: number; dry_run: boolean }) =>
      api(revisionsApi.projectRollback, { env, params: { name, rev }, body: { dry_run } }),
    onSuccess: (_result, { dry_run }) => {
      if (dry_run) return;
      void queryClient.invalidateQueries({ queryKey: queryKeys.projects.detail(env, name) });
      void queryClient.invalidateQueries({ queryKey: queryKeys.apps.all(env) });
    },
  });
}
