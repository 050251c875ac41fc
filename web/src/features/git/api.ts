import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { gitApi, type CreateGitCredentialBody, type FromGitBody, type ProjectPlan } from '@berth/contract';
import { api } from '../../lib/api-client';
import { useEnvironment } from '../../lib/environment';
import { notifySuccess } from '../../lib/notify';
import { queryKeys } from '../../lib/query-keys';

/** A project's git state; `null` when the project is not from git. */
export function useGitStatus(name: string) {
  const env = useEnvironment();
  return useQuery({
    queryKey: queryKeys.projects.git(env, name),
    queryFn: () => api(gitApi.status, { env, params: { name } }),
  });
}

type GitAction = 'pull' | 'deploy' | 'discard';

/** Pull (fetch, check out, plan), deploy (… and up) or discard the local edits of a git-backed project. */
export function useGitAction(name: string) {
  const env = useEnvironment();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (action: GitAction): Promise<{ action: GitAction; plan: ProjectPlan | null }> => {
      const params = { name };
      if (action === 'pull') return api(gitApi.pull, { env, params }).then((r) => ({ action, plan: r.plan }));
      if (action === 'deploy') return api(gitApi.deploy, { env, params }).then((r) => ({ action, plan: r.plan }));
      return api(gitApi.discard, { env, params }).then(() => ({ action, plan: null }));
    },
    onSuccess: ({ action }) => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.projects.detail(env, name) });
      void queryClient.invalidateQueries({ queryKey: queryKeys.projects.list(env) });
      void queryClient.invalidateQueries({ queryKey: queryKeys.apps.all(env) });
      const done = { pull: 'pulled from git', deploy: 'deployed from git', discard: 'back to the checked-out commit' };
      notifySuccess(`${name} ${done[action]}.`);
    },
  });
}

export function useFromGit() {
  const env = useEnvironment();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: FromGitBody) => api(gitApi.fromGit, { env, body }),
    // The form shows why.
    meta: { notifyError: false },
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: queryKeys.projects.list(env) }),
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
