import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  gitApi,
  type CreateGitCredentialBody,
  type FromGitBody,
  type GitSourcePatch,
  type ProjectPlan,
} from '@berth/contract';
import { api } from '../../lib/api-client';
import { useEnvironment } from '../../lib/environment';
import { notifySuccess } from '../../lib/notify';
import { queryKeys } from '../../lib/query-keys';

/** What a git source feeds: a compose project or a swarm stack (the same calls under their own paths). */
export type GitKind = 'project' | 'stack';

/** The routes of each kind. */
export const GIT_ROUTES = {
  project: {
    create: gitApi.fromGit,
    status: gitApi.status,
    patch: gitApi.updateSource,
    pull: gitApi.pull,
    deploy: gitApi.deploy,
    discard: gitApi.discard,
  },
  stack: {
    create: gitApi.stackFromGit,
    status: gitApi.stackStatus,
    patch: gitApi.updateStackSource,
    pull: gitApi.stackPull,
    deploy: gitApi.stackDeploy,
    discard: gitApi.stackDiscard,
  },
} as const;

const statusKey = (kind: GitKind, env: string, name: string) =>
  kind === 'project' ? queryKeys.projects.git(env, name) : queryKeys.swarm.stackGit(env, name);

/** What a change to a project's (or stack's) files makes stale. */
function invalidateOwner(queryClient: ReturnType<typeof useQueryClient>, kind: GitKind, env: string, name: string) {
  if (kind === 'project') {
    void queryClient.invalidateQueries({ queryKey: queryKeys.projects.detail(env, name) });
    void queryClient.invalidateQueries({ queryKey: queryKeys.projects.list(env) });
    void queryClient.invalidateQueries({ queryKey: queryKeys.apps.all(env) });
  } else {
    void queryClient.invalidateQueries({ queryKey: queryKeys.swarm.stack(env, name) });
    void queryClient.invalidateQueries({ queryKey: queryKeys.swarm.stacks(env) });
    void queryClient.invalidateQueries({ queryKey: queryKeys.swarm.services(env) });
  }
}

/** A project's (or stack's) git state; `null` when it is not from git. */
export function useGitStatus(name: string, kind: GitKind = 'project') {
  const env = useEnvironment();
  return useQuery({
    queryKey: statusKey(kind, env, name),
    queryFn: () => api(GIT_ROUTES[kind].status, { env, params: { name } }),
  });
}

type GitAction = 'pull' | 'deploy' | 'discard';

/** Pull (fetch, check out, plan), deploy (… and up) or discard the local edits of a git-backed project or stack. */
export function useGitAction(name: string, kind: GitKind = 'project') {
  const env = useEnvironment();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (action: GitAction): Promise<{ action: GitAction; plan: ProjectPlan | null }> => {
      const params = { name };
      const routes = GIT_ROUTES[kind];
      if (action === 'pull') return api(routes.pull, { env, params }).then((r) => ({ action, plan: r.plan }));
      if (action === 'deploy') return api(routes.deploy, { env, params }).then((r) => ({ action, plan: r.plan }));
      return api(routes.discard, { env, params }).then(() => ({ action, plan: null }));
    },
    onSuccess: ({ action }) => {
      invalidateOwner(queryClient, kind, env, name);
      const done = { pull: 'pulled from git', deploy: 'deployed from git', discard: 'back to the checked-out commit' };
      notifySuccess(`${name} ${done[action]}.`);
    },
  });
}

/** PATCH of the source: ref, file, env file, credential, sync policy. */
export function usePatchGitSource(name: string, kind: GitKind = 'project') {
  const env = useEnvironment();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: GitSourcePatch) => api(GIT_ROUTES[kind].patch, { env, params: { name }, body }),
    // The dialog shows why.
    meta: { notifyError: false },
    onSuccess: (r) => {
      queryClient.setQueryData(statusKey(kind, env, name), r.git);
      invalidateOwner(queryClient, kind, env, name);
    },
  });
}

export function useFromGit(kind: GitKind = 'project') {
  const env = useEnvironment();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: FromGitBody) => api(GIT_ROUTES[kind].create, { env, body }),
    // The form shows why.
    meta: { notifyError: false },
    onSuccess: () =>
      void queryClient.invalidateQueries({
        queryKey: kind === 'project' ? queryKeys.projects.list(env) : queryKeys.swarm.stacks(env),
      }),
  });
}

export function useGitCredentials(enabled = true) {
  return useQuery({
    queryKey: queryKeys.gitCredentials(),
    queryFn: () => api(gitApi.credentials, {}),
    enabled,
  });
}

export function useCreateGitCredential() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateGitCredentialBody) => api(gitApi.createCredential, { body }),
    onSuccess: (c) => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.gitCredentials() });
      notifySuccess(`Git credential ${c.name} added.`);
    },
  });
}

export function useDeleteGitCredential() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api(gitApi.deleteCredential, { params: { id } }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: queryKeys.gitCredentials() }),
  });
}
