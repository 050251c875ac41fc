import { queryOptions, useQuery } from '@tanstack/react-query';
import { projectApi } from '@berth/contract';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { useEnvironment } from '../../../lib/environment';

/** Service states change outside Berth too (a crash, the CLI); a gentle poll keeps them current. */
const DETAIL_POLL_MS = 5_000;

export const projectsQuery = (env: string) =>
  queryOptions({
    queryKey: queryKeys.projects.list(env),
    queryFn: ({ signal }) => api(projectApi.list, { env, signal }),
  });

export const projectQuery = (env: string, name: string) =>
  queryOptions({
    queryKey: queryKeys.projects.detail(env, name),
    queryFn: ({ signal }) => api(projectApi.get, { env, params: { name }, signal }),
    refetchInterval: DETAIL_POLL_MS,
  });

export const useProjects = () => useQuery(projectsQuery(useEnvironment()));
/** `poll` keeps service states current on the project page; the editor reads the file once. */
export const useProject = (name: string, opts: { enabled?: boolean; poll?: boolean } = {}) =>
  useQuery({
    ...projectQuery(useEnvironment(), name),
    enabled: opts.enabled ?? true,
    ...(opts.poll === false ? { refetchInterval: false as const } : {}),
  });

/** What `up` would do; read right before it runs, never cached. */
export const projectPlanQuery = (env: string, name: string) =>
  queryOptions({
    queryKey: queryKeys.projects.plan(env, name),
    queryFn: ({ signal }) => api(projectApi.plan, { env, params: { name }, signal }),
    staleTime: 0,
    gcTime: 0,
  });

/** The project's .env, values masked (revealed only through a re-authenticated call). */
export const projectEnvQuery = (env: string, name: string) =>
  queryOptions({
    queryKey: queryKeys.projects.env(env, name),
    queryFn: ({ signal }) => api(projectApi.env, { env, params: { name }, signal }),
  });
