import type { Uses } from '../../context';
import { GitRepo } from '../../db/git-repo';
import { deriveKey } from '../../lib/secret-box';
import type { AuditRecord } from '../audit/audit';
import type { ComposeFailure } from '../projects/projects-actions';
import { GitCredentialsService } from './credentials';
import { gitScopeOf, type GitScopeParts } from './owners';
import { GitSnapshots } from './snapshots';
import { GitSourcesService } from './sources';
import { GitSync } from './sync';

export { gitScopeOf, type GitScope, type GitScopeParts } from './owners';
export type { GitSnapshots, GitSnapshotSource } from './snapshots';

/**
 * Git-backed projects and stacks (issue 34): the credentials (sealed under a key of their own),
 * each one's source and working copy, and their sync by webhook or polling; and throwaway copies
 * of one commit for other jobs (snapshots).
 */
export function createGit(
  ctx: Uses<'db' | 'log' | 'onClose' | 'afterStart', 'cliEnv' | 'dataDir' | 'gitTimeoutMs' | 'gitMaxBytes'>,
  signingKey: Uint8Array,
  deps: {
    scope: (environment: string) => GitScopeParts;
    audit: (r: AuditRecord) => void;
    onFailed: (environment: string, f: ComposeFailure) => void;
  },
) {
  const repo = new GitRepo(ctx.db);
  const credentials = new GitCredentialsService(repo, deriveKey(signingKey, 'git-credentials'));
  const hookKey = deriveKey(signingKey, 'git-hooks');
  const sources = new GitSourcesService(ctx, repo, credentials, hookKey);
  const sync = new GitSync(repo, sources, hookKey, {
    ...deps,
    scope: (id) => gitScopeOf(deps.scope(id)),
    log: ctx.log,
  });
  ctx.afterStart(() => sync.start());
  ctx.onClose(() => sync.stop());
  // One commit's files for a job that is no project (an image build from git).
  const snapshots = new GitSnapshots(ctx, credentials);
  return { credentials, sources, sync, snapshots };
}

export type GitServices = ReturnType<typeof createGit>;
