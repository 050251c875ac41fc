import { z } from 'zod';
import { defineRoute } from '../route';
import { ActionResult, ProjectPlan } from './project';
import { StackDeployed } from './swarm';

/**
 * Git-backed projects and stacks (issue 34): a compose project or swarm stack whose files come
 * from a git repository, fetched with Debian's `git`, and the credentials Berth fetches with.
 */

/** A credential as it is shown: never its token or key. `known_hosts`: the SSH host keys kept on first sight. */
export const GitCredential = z.object({
  id: z.string(),
  name: z.string(),
  kind: z.enum(['https', 'ssh']),
  username: z.string().nullable(),
  known_hosts: z.array(z.string()),
  created_at: z.string(),
  updated_at: z.string(),
});
export type GitCredential = z.infer<typeof GitCredential>;

const CredentialName = z.string().trim().min(1).max(100);
const Secret = z.string().min(1).max(16_384);
export const CreateGitCredentialBody = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('https'),
    name: CredentialName,
    username: z.string().min(1).max(200),
    token: Secret,
  }),
  z.strictObject({
    kind: z.literal('ssh'),
    name: CredentialName,
    private_key: Secret,
    /** `host key-type base64` lines to pin before the first fetch; else each host's key is kept when first seen. */
    known_hosts: z.string().max(16_384).optional(),
  }),
]);
export type CreateGitCredentialBody = z.infer<typeof CreateGitCredentialBody>;
export const UpdateGitCredentialBody = z.strictObject({
  name: CredentialName.optional(),
  username: z.string().min(1).max(200).optional(),
  token: Secret.optional(),
  private_key: Secret.optional(),
  /** Replaces the kept host keys ("" forgets them: the next fetch keeps what it sees). */
  known_hosts: z.string().max(16_384).optional(),
});

export const GIT_SYNC_POLICIES = ['manual', 'poll', 'webhook'] as const;
export const GitSync = z.discriminatedUnion('policy', [
  z.strictObject({ policy: z.literal('manual') }),
  z.strictObject({ policy: z.literal('poll'), interval_minutes: z.number().int().min(1).max(1440) }),
  z.strictObject({ policy: z.literal('webhook') }),
]);
export type GitSync = z.infer<typeof GitSync>;

const RepoPath = z
  .string()
  .min(1)
  .max(500)
  .refine((p) => !p.startsWith('/') && !p.split('/').includes('..'), 'A path inside the repository, without ..');

export const FromGitBody = z.strictObject({
  name: z.string().max(200),
  /** https://, http://, git:// or ssh:// (or user@host:path); never a local path. */
  url: z.string().min(1).max(2000),
  /** A branch, a tag or a commit. */
  ref: z.string().min(1).max(250),
  /** The compose file in the repository (default: compose.yaml, compose.yml, docker-compose.yaml, docker-compose.yml at its root). */
  path: RepoPath.optional(),
  /** A file in the repository used as the project's .env. */
  env_file: RepoPath.optional(),
  credential_id: z.string().optional(),
  sync: GitSync,
});
export type FromGitBody = z.infer<typeof FromGitBody>;

/** Another ref, file, env file (null: none), credential (null: none) or sync policy for a git source. */
export const GitSourcePatch = z.strictObject({
  ref: z.string().min(1).max(250).optional(),
  path: RepoPath.optional(),
  /** null: the repository's env file no longer feeds the project's .env (the .env there stays). */
  env_file: RepoPath.nullable().optional(),
  credential_id: z.string().nullable().optional(),
  sync: GitSync.optional(),
});
export type GitSourcePatch = z.infer<typeof GitSourcePatch>;

export const GitStatus = z.object({
  remote: z.string(),
  ref: z.string(),
  path: z.string(),
  env_file: z.string().nullable(),
  credential_id: z.string().nullable(),
  sync: GitSync,
  /** The commit the working copy holds, the one last deployed, and the newest one on the remote (last fetch). */
  head_commit: z.string().nullable(),
  deployed_commit: z.string().nullable(),
  latest_commit: z.string().nullable(),
  /** Commits the remote has that the working copy does not, and the other way round (null: unknown, e.g. history rewritten). */
  behind: z.number().int().nullable(),
  ahead: z.number().int().nullable(),
  /** Files changed in Berth's editor since the checkout: Berth never pushes them back to the remote. */
  local_edits: z.boolean(),
  edited_files: z.array(z.string()),
  last_fetch_at: z.string().nullable(),
  last_error: z.string().nullable(),
  /** Where the repository's webhook posts (its secret was shown once, when it was made). */
  webhook_url: z.string().nullable(),
});
export type GitStatus = z.infer<typeof GitStatus>;

export const FromGitResult = z.object({
  name: z.string(),
  git: GitStatus,
  /** The webhook's secret, shown this once (null: not a webhook project, or the repository's hook already existed). */
  webhook_secret: z.string().nullable(),
  warnings: z.array(z.string()),
});
export type FromGitResult = z.infer<typeof FromGitResult>;
export const GitPullResult = z.object({ git: GitStatus, plan: ProjectPlan });
export type GitPullResult = z.infer<typeof GitPullResult>;
/** `result`: the compose up's (a project) or the `docker stack deploy`'s (a stack). */
export const GitDeployResult = z.object({
  git: GitStatus,
  plan: ProjectPlan,
  result: z.union([ActionResult, StackDeployed]),
});
export type GitDeployResult = z.infer<typeof GitDeployResult>;

export const GitHookResult = z.object({
  results: z.array(
    z.object({
      environment: z.string(),
      kind: z.enum(['project', 'stack']),
      /** The project's (or stack's) name. */
      project: z.string(),
      /** deploying: its files changed (runs in the background); unchanged: a push that does not touch them; skipped: another ref. */
      outcome: z.enum(['deploying', 'unchanged', 'skipped', 'failed']),
      detail: z.string().nullable(),
    }),
  ),
});
export type GitHookResult = z.infer<typeof GitHookResult>;
export type UpdateGitCredentialBody = z.infer<typeof UpdateGitCredentialBody>;

const NameParams = z.object({ name: z.string() });
const IdParams = z.object({ id: z.string() });

export const gitApi = {
  credentials: defineRoute({
    method: 'GET',
    role: 'admin',
    path: '/api/git/credentials',
    scope: 'global',
    tag: 'git',
    summary: 'Git credentials (tokens and keys are never returned)',
    response: z.array(GitCredential),
  }),
  createCredential: defineRoute({
    method: 'POST',
    role: 'admin',
    path: '/api/git/credentials',
    scope: 'global',
    tag: 'git',
    summary: 'Add an HTTPS username + token, or an SSH deploy key (sealed at rest)',
    body: CreateGitCredentialBody,
    response: GitCredential,
  }),
  credential: defineRoute({
    method: 'GET',
    role: 'admin',
    path: '/api/git/credentials/{id}',
    scope: 'global',
    tag: 'git',
    summary: 'One git credential',
    params: IdParams,
    response: GitCredential,
  }),
  updateCredential: defineRoute({
    method: 'PATCH',
    role: 'admin',
    path: '/api/git/credentials/{id}',
    scope: 'global',
    tag: 'git',
    summary: 'Rename a git credential, replace its secret or its kept host keys',
    params: IdParams,
    body: UpdateGitCredentialBody,
    response: GitCredential,
  }),
  deleteCredential: defineRoute({
    method: 'DELETE',
    role: 'admin',
    path: '/api/git/credentials/{id}',
    scope: 'global',
    tag: 'git',
    summary: 'Remove a git credential (refused while a project uses it)',
    params: IdParams,
    response: z.object({ id: z.string() }),
  }),
  fromGit: defineRoute({
    method: 'POST',
    role: 'operator',
    path: '/api/compose/from-git',
    scope: 'environment',
    tag: 'git',
    summary:
      'Create a project from a git repository (fetches only the ref; the file passes the same checks as any save)',
    body: FromGitBody,
    response: FromGitResult,
  }),
  status: defineRoute({
    method: 'GET',
    role: 'viewer',
    path: '/api/compose/{name}/git',
    scope: 'environment',
    tag: 'git',
    summary:
      "A git-backed project's remote, ref, commits (deployed, latest), behind/ahead and local edits; null for a project not from git",
    params: NameParams,
    response: GitStatus.nullable(),
  }),
  pull: defineRoute({
    method: 'POST',
    role: 'operator',
    path: '/api/compose/{name}/git/pull',
    scope: 'environment',
    tag: 'git',
    summary: 'Fetch the ref, check the new files out and show the plan (nothing is started)',
    params: NameParams,
    response: GitPullResult,
  }),
  deploy: defineRoute({
    method: 'POST',
    role: 'operator',
    path: '/api/compose/{name}/git/deploy',
    scope: 'environment',
    tag: 'git',
    summary: 'Fetch the ref, check it out, plan and up',
    params: NameParams,
    response: GitDeployResult,
  }),
  discard: defineRoute({
    method: 'POST',
    role: 'operator',
    path: '/api/compose/{name}/git/discard',
    scope: 'environment',
    tag: 'git',
    summary: "Discard the local edits of a git-backed project (back to the checked-out commit's files)",
    params: NameParams,
    response: GitStatus,
  }),
  updateSource: defineRoute({
    method: 'PATCH',
    role: 'operator',
    path: '/api/compose/{name}/git',
    scope: 'environment',
    tag: 'git',
    summary:
      "Change a git-backed project's ref, file, env file, credential or sync policy (a new ref is fetched, a new file judged; a new webhook's secret is shown once)",
    params: NameParams,
    body: GitSourcePatch,
    response: FromGitResult,
  }),
  stackFromGit: defineRoute({
    method: 'POST',
    role: 'operator',
    path: '/api/swarm/stacks/from-git',
    scope: 'environment',
    tag: 'git',
    summary:
      'Create a stack from a git repository (stored, not deployed; the file passes the same checks as a stack deploy)',
    body: FromGitBody,
    response: FromGitResult,
  }),
  stackStatus: defineRoute({
    method: 'GET',
    role: 'viewer',
    path: '/api/swarm/stacks/{name}/git',
    scope: 'environment',
    tag: 'git',
    summary: "A git-backed stack's remote, ref, commits, behind/ahead and local edits; null for a stack not from git",
    params: NameParams,
    response: GitStatus.nullable(),
  }),
  updateStackSource: defineRoute({
    method: 'PATCH',
    role: 'operator',
    path: '/api/swarm/stacks/{name}/git',
    scope: 'environment',
    tag: 'git',
    summary: "Change a git-backed stack's ref, file, credential or sync policy",
    params: NameParams,
    body: GitSourcePatch,
    response: FromGitResult,
  }),
  stackPull: defineRoute({
    method: 'POST',
    role: 'operator',
    path: '/api/swarm/stacks/{name}/git/pull',
    scope: 'environment',
    tag: 'git',
    summary: 'Fetch the ref, check the new files out and show what a deploy would change (nothing is deployed)',
    params: NameParams,
    response: GitPullResult,
  }),
  stackDeploy: defineRoute({
    method: 'POST',
    role: 'operator',
    path: '/api/swarm/stacks/{name}/git/deploy',
    scope: 'environment',
    tag: 'git',
    summary: 'Fetch the ref, check it out, plan and docker stack deploy',
    params: NameParams,
    response: GitDeployResult,
  }),
  stackDiscard: defineRoute({
    method: 'POST',
    role: 'operator',
    path: '/api/swarm/stacks/{name}/git/discard',
    scope: 'environment',
    tag: 'git',
    summary: "Discard the local edits of a git-backed stack (back to the checked-out commit's files)",
    params: NameParams,
    response: GitStatus,
  }),
  hook: defineRoute({
    method: 'POST',
    open: true,
    path: '/api/hooks/git/{hook_id}',
    scope: 'global',
    tag: 'git',
    summary:
      'A push webhook (GitHub X-Hub-Signature-256, GitLab X-Gitlab-Token, Gitea/Forgejo X-Gitea-Signature, or X-Berth-Signature: sha256 HMAC)',
    params: z.object({ hook_id: z.string() }),
    response: GitHookResult,
  }),
};
