import fs from 'node:fs/promises';
import path from 'node:path';
import { GIT_COMPOSE_MARKER } from '../../compose/paths';
import { GitSession, type GitAuth, type GitLimits } from '../../compose/git-cli';
import type { Config } from '../../config';
import { ValidationError } from '../../errors';

/** What a git-backed project's checkout is fetched from. */
export interface GitSource {
  url: string;
  ref: string;
  auth: GitAuth | null;
}

/** Where git sessions keep their secrets (0700 folders, removed after each session). */
export const gitTmpRoot = (dataDir: string) => path.join(dataDir, '.tmp', 'git');

/** The limits every fetch runs under: GIT_TIMEOUT_SECONDS, GIT_MAX_MB and the CLI's PATH. */
export function gitLimits(config: Pick<Config, 'cliEnv' | 'gitTimeoutMs' | 'gitMaxBytes'>): GitLimits {
  return {
    timeoutMs: config.gitTimeoutMs,
    maxBytes: config.gitMaxBytes,
    pathVar: config.cliEnv.PATH ?? '/usr/bin:/bin',
  };
}

/** scp-like `user@host:path` (what git reads as ssh). */
const SCP_LIKE = /^[A-Za-z0-9._-]+@[A-Za-z0-9.-]+:(?!\/\/)/;

/**
 * Refuses a remote Berth must not fetch from: a local path or file:// (it would read Berth's own
 * disk), a transport helper (`ext::`), an option-looking URL, or a password written into the URL
 * (it would end up in logs and `.git/config`; credentials are stored apart).
 */
export function checkRemoteUrl(url: string): void {
  const bad = (why: string) => {
    throw new ValidationError(`Invalid repository URL: ${why}`, [{ field: 'url', message: why }]);
  };
  if (/\s/.test(url) || url.startsWith('-')) bad('it may not contain spaces or start with "-".');
  if (SCP_LIKE.test(url)) return;
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return bad('use https://, http://, git://, ssh:// or user@host:path.');
  }
  if (!['https:', 'http:', 'git:', 'ssh:'].includes(u.protocol))
    bad(`${u.protocol.replace(/:$/, '')} is not fetched; use https://, http://, git:// or ssh://.`);
  if (u.password || (u.username && u.protocol.startsWith('http')))
    bad('put the username and token in a git credential, not in the URL.');
}

/** A ref as git must never read it as an option, a range or a revision expression. */
export function checkRef(ref: string): void {
  if (ref.startsWith('-') || /[\s~^:?*[\\]|\.\.|@\{/.test(ref))
    throw new ValidationError(`Invalid ref ${JSON.stringify(ref.slice(0, 80))}: a branch, tag or commit name.`, [
      { field: 'ref', message: 'A branch, tag or commit name.' },
    ]);
}

/** One project's working copy: a shallow fetch of one ref, checked out detached (no remote is configured). */
export class Checkout {
  constructor(
    readonly folder: string,
    private readonly limits: GitLimits,
    private readonly tmpRoot: string,
  ) {}

  /** Runs `fn` with a session holding the source's credential; returns the SSH hosts known afterwards. */
  private async session<T>(
    src: GitSource,
    fn: (s: GitSession) => Promise<T>,
  ): Promise<{ value: T; knownHosts: string | null }> {
    const s = await GitSession.open(this.tmpRoot, src.auth, this.limits.pathVar);
    try {
      const value = await fn(s);
      return { value, knownHosts: await s.knownHosts() };
    } finally {
      await s.close();
    }
  }

  private local(args: string[]): Promise<string> {
    return this.session({ url: '', ref: '', auth: null }, (s) => s.run(this.folder, args, this.limits)).then(
      (r) => r.value,
    );
  }

  /** Fetches only `ref`, one commit deep, into the empty `folder` and checks it out detached. */
  private async fetchFirst(s: GitSession, src: GitSource, signal?: AbortSignal): Promise<void> {
    await s.run(this.folder, ['init', '-q'], this.limits, undefined, signal);
    await s.run(
      this.folder,
      ['fetch', '-q', '--no-tags', '--depth=1', '--', src.url, src.ref],
      this.limits,
      this.folder,
      signal,
    );
    await s.run(this.folder, ['checkout', '-q', '--detach', 'FETCH_HEAD'], this.limits, this.folder, signal);
  }

  /**
   * A new working copy in `folder` (must not exist): only `ref`, one commit deep, checked out.
   * `excludes`: files Berth writes there that are not edits of the repository's (git status skips them).
   */
  async clone(src: GitSource, composePath: string, excludes: string[]): Promise<{ knownHosts: string | null }> {
    await fs.mkdir(this.folder, { mode: 0o755 });
    const r = await this.session(src, (s) => this.fetchFirst(s, src));
    await fs.writeFile(path.join(this.folder, GIT_COMPOSE_MARKER), `${composePath}\n`);
    await fs.appendFile(path.join(this.folder, '.git', 'info', 'exclude'), `\n${excludes.join('\n')}\n`);
    return { knownHosts: r.knownHosts };
  }

  /** A throwaway copy of `ref`'s files in `folder` (must not exist; 0700), fetched as a clone is; `signal` stops it. */
  async copy(src: GitSource, signal?: AbortSignal): Promise<{ knownHosts: string | null }> {
    await fs.mkdir(this.folder, { mode: 0o700 });
    return this.session(src, (s) => this.fetchFirst(s, src, signal));
  }

  /** Fetches the ref again (only what is new); FETCH_HEAD is the remote's newest commit. */
  async fetch(src: GitSource): Promise<{ latest: string; knownHosts: string | null }> {
    const r = await this.session(src, (s) =>
      s.run(
        this.folder,
        ['fetch', '-q', '--no-tags', '--', src.url, src.ref],
        this.limits,
        path.join(this.folder, '.git'),
      ),
    );
    return { latest: (await this.local(['rev-parse', 'FETCH_HEAD'])).trim(), knownHosts: r.knownHosts };
  }

  async head(): Promise<string | null> {
    return (await this.local(['rev-parse', 'HEAD']).catch(() => '')).trim() || null;
  }

  /** Commits in `to` that `from` lacks; null when the history does not tell (rewritten, or too shallow). */
  async count(from: string, to: string): Promise<number | null> {
    const out = await this.local(['rev-list', '--count', `${from}..${to}`]).catch(() => null);
    const n = out === null ? NaN : Number.parseInt(out.trim(), 10);
    return Number.isFinite(n) ? n : null;
  }

  /** Files of the repository changed in the working copy (the editor's edits), excluded files aside. */
  async edited(): Promise<string[]> {
    const out = await this.local(['status', '--porcelain=v1', '-z', '--untracked-files=all']);
    return out
      .split('\0')
      .filter((l) => l.length > 3)
      .map((l) => l.slice(3));
  }

  /** Files that differ between two commits. */
  async changed(from: string, to: string): Promise<string[] | null> {
    const out = await this.local(['diff', '--name-only', '-z', from, to]).catch(() => null);
    return out === null ? null : out.split('\0').filter(Boolean);
  }

  async checkout(commit: string): Promise<void> {
    await this.local(['checkout', '-q', '--detach', commit]);
  }

  /** Back to the checked-out commit's files: edits undone, new files removed (the ignored .env stays). */
  async discard(): Promise<void> {
    await this.local(['checkout', '-q', '-f', '--detach', 'HEAD']);
    await this.local(['clean', '-f', '-d', '-q']);
  }
}
