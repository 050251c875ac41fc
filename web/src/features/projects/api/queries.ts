import { queryOptions, useQuery } from '@tanstack/react-query';
import { projectApi } from '@berth/contract';
import { api } from '../../../lib/api-client';
import { projectKeys } from './keys';

/** Service states change outside Berth too (a crash, the CLI); a gentle poll keeps them current. */
const DETAIL_POLL_MS = 5_000;

export const projectsQuery = () =>
  queryOptions({
    queryKey: projectKeys.list(),
    queryFn: ({ signal }) => api(projectApi.list, { signal }),
  });

export const projectQuery = (name: string) =>
  queryOptions({
    queryKey: projectKeys.detail(name),
    queryFn: ({ signal }) => api(projectApi.get, { params: { name }, signal }),
    refetchInterval: DETAIL_POLL_MS,
  });

export const useProjects = () => useQuery(projectsQuery());
/** `poll` keeps service states current on the project page; the editor reads the file once. */
export const useProject = (name: string, opts: { enabled?: boolean; poll?: boolean } = {}) =>
  useQuery({
    ...projectQuery(name),
    enabled: opts.enabled ?? true,
    ...(opts.poll === false ? { refetchInterval: false as const } : {}),
  });

/** What `up` would do; read right before it runs, never cached. */
export const projectPlanQuery = (name: string) =>
  queryOptions({
    queryKey: [...projectKeys.detail(name), 'plan'],
    queryFn: ({ signal }) => api(projectApi.plan, { params: { name }, signal }),
    staleTime: 0,
    gcTime: 0,
  });

/** The project's .env, values masked (revealed only through a re-authenticated call). */
export const projectEnvQuery = (name: string) =>
  queryOptions({
    queryKey: [...projectKeys.detail(name), 'env'],
    queryFn: ({ signal }) => api(projectApi.env, { params: { name }, signal }),
  });
