import fs from 'node:fs/promises';
import path from 'node:path';
import type { Uses } from '../../context';
import { Checkout, checkRef, checkRemoteUrl, gitLimits, gitTmpRoot } from './checkout';
import type { GitCredentialsService } from './credentials';

/** A repository to take one commit's files from (an image build's context). */
export interface GitSnapshotSource {
  url: string;
  /** A branch, tag or commit; null: the remote's default branch. */
  ref: string | null;
  /** A stored git credential (HTTPS token or SSH key); null: anonymous. */
  credentialId: string | null;
}

/**
 * One commit's files of a repository, for as long as a job needs them: fetched as a git-backed
 * project's checkout is (the same URL checks, credentials and limits), into a private 0700 folder
 * removed afterwards. The credential never reaches argv, the folder or its `.git/config`.
 */
export class GitSnapshots {
  constructor(
    private readonly ctx: Uses<never, 'cliEnv' | 'dataDir' | 'gitTimeoutMs' | 'gitMaxBytes'>,
    private readonly credentials: GitCredentialsService,
  ) {}

  /** Refuses what a git-backed project would: a local or option-like URL, a bad ref, an unknown credential. */
  check(src: GitSnapshotSource): void {
    checkRemoteUrl(src.url);
    if (src.ref !== null) checkRef(src.ref);
    if (src.credentialId !== null) this.credentials.exists(src.credentialId);
  }

  /** Runs `fn` on a fresh copy of the ref's files (`folder`, at `commit`); the copy is removed after. `signal` stops the fetch. */
  async with<T>(
    src: GitSnapshotSource,
    signal: AbortSignal | undefined,
    fn: (folder: string, commit: string) => Promise<T>,
  ): Promise<T> {
    this.check(src);
    const root = path.join(this.ctx.config.dataDir, '.tmp', 'git-snapshots');
    await fs.mkdir(root, { recursive: true, mode: 0o700 });
    const dir = await fs.mkdtemp(path.join(root, 's-'));
    try {
      await fs.chmod(dir, 0o700);
      const co = new Checkout(path.join(dir, 'repo'), gitLimits(this.ctx.config), gitTmpRoot(this.ctx.config.dataDir));
      const { knownHosts } = await co.copy(
        { url: src.url, ref: src.ref ?? 'HEAD', auth: this.credentials.auth(src.credentialId) },
        signal,
      );
      this.credentials.keepKnownHosts(src.credentialId, knownHosts);
      return await fn(co.folder, (await co.head()) ?? '');
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  }
}
