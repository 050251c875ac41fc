import fs from 'node:fs/promises';
import path from 'node:path';
import { PayloadTooLargeError, UpstreamError, UpstreamTimeoutError } from '../errors';
import { run } from './cli';

/** What a fetch may present: an HTTPS username and token, or an SSH deploy key with the hosts it has seen. */
export type GitAuth =
  { kind: 'https'; username: string; token: string } | { kind: 'ssh'; privateKey: string; knownHosts: string };

export interface GitLimits {
  timeoutMs: number;
  /** The most a working copy's `.git` may hold; a fetch is stopped as soon as it passes it. */
  maxBytes: number;
  /** The PATH git runs with (the CLI environment's). */
  pathVar: string;
}

/** The protocols a remote may use: never `file` or `ext` (a local path would read Berth's own disk). */
const ALLOWED_PROTOCOLS = 'http:https:git:ssh';
/** What git and ssh say when the remote wants a login it did not get (none, or a wrong one). */
const AUTH_REFUSED =
  /Authentication failed|could not read (Username|Password)|terminal prompts disabled|Permission denied \(publickey|HTTP Basic: Access denied|returned error: 40[13]/i;
/** How often a running fetch's size is measured. */
const SIZE_POLL_MS = 200;

/**
 * Git's environment: nothing of the user's or system's config (no credential helper, no stored
 * passwords), no prompt, only network protocols, and a HOME of its own (`dir`).
 */
function baseEnv(dir: string, pathVar: string): Record<string, string> {
  return {
    PATH: pathVar,
    HOME: dir,
    LANG: 'C',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_TERMINAL_PROMPT: '0',
    GIT_ALLOW_PROTOCOL: ALLOWED_PROTOCOLS,
    GIT_PROTOCOL_FROM_USER: '0',
    GIT_SSH_COMMAND: 'ssh -F /dev/null -o BatchMode=yes -o StrictHostKeyChecking=yes -o UserKnownHostsFile=/dev/null',
  };
}

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** Bytes below `dir` (files only, links not followed). */
export async function treeBytes(dir: string): Promise<number> {
  let total = 0;
  const entries = await fs.readdir(dir, { withFileTypes: true, recursive: true }).catch(() => []);
  for (const e of entries) {
    if (!e.isFile()) continue;
    total += await fs
      .lstat(path.join(e.parentPath, e.name))
      .then((s) => s.size)
      .catch(() => 0);
  }
  return total;
}

/**
 * A git session: a private 0700 folder for the secrets of one fetch (an askpass script with the
 * username and token in files beside it, or the deploy key and known hosts), removed afterwards.
 * Secrets are never in argv or a process environment, never in the working copy or its `.git/config`.
 */
export class GitSession {
  private constructor(
    private readonly dir: string,
    private readonly env: Record<string, string>,
    private readonly knownHostsFile: string | null,
  ) {}

  static async open(tmpRoot: string, auth: GitAuth | null, pathVar: string): Promise<GitSession> {
    await fs.mkdir(tmpRoot, { recursive: true, mode: 0o700 });
    const dir = await fs.mkdtemp(path.join(tmpRoot, 'git-'));
    await fs.chmod(dir, 0o700);
    const env = baseEnv(dir, pathVar);
    try {
      if (auth?.kind === 'https') {
        // The askpass script reads the username and token from 0600 files beside it: neither is in
        // any process's argv or environment.
        const askpass = path.join(dir, 'askpass');
        const user = path.join(dir, 'username');
        const token = path.join(dir, 'token');
        await fs.writeFile(user, auth.username, { mode: 0o600 });
        await fs.writeFile(token, auth.token, { mode: 0o600 });
        await fs.writeFile(
          askpass,
          `#!/bin/sh\ncase "$1" in\n  Username*) cat ${shellQuote(user)} ;;\n  *) cat ${shellQuote(token)} ;;\nesac\n`,
          { mode: 0o700 },
        );
        env.GIT_ASKPASS = askpass;
        return new GitSession(dir, env, null);
      }
      if (auth?.kind === 'ssh') {
        const key = path.join(dir, 'id');
        const knownHosts = path.join(dir, 'known_hosts');
        await fs.writeFile(key, auth.privateKey.endsWith('\n') ? auth.privateKey : `${auth.privateKey}\n`, {
          mode: 0o600,
        });
        await fs.writeFile(knownHosts, auth.knownHosts, { mode: 0o600 });
        // accept-new: a host never seen is kept (first seen), a known host whose key changed is refused.
        env.GIT_SSH_COMMAND = [
          'ssh -F /dev/null -o BatchMode=yes -o IdentitiesOnly=yes -o StrictHostKeyChecking=accept-new',
          `-o HashKnownHosts=no -o GlobalKnownHostsFile=/dev/null -o ConnectTimeout=20`,
          `-o UserKnownHostsFile=${shellQuote(knownHosts)} -i ${shellQuote(key)}`,
        ].join(' ');
        return new GitSession(dir, env, knownHosts);
      }
      return new GitSession(dir, env, null);
    } catch (err) {
      await fs.rm(dir, { recursive: true, force: true });
      throw err;
    }
  }

  /** The SSH hosts known after the session's runs (the first-seen keys added), or null without SSH. */
  async knownHosts(): Promise<string | null> {
    return this.knownHostsFile ? fs.readFile(this.knownHostsFile, 'utf8').catch(() => null) : null;
  }

  async close(): Promise<void> {
    await fs.rm(this.dir, { recursive: true, force: true });
  }

  /**
   * `git <args>` in `cwd` (argv only). With `watch`, the folder's size is measured while it runs
   * and the run is stopped past `limits.maxBytes`; `cancel` stops it (the whole process group).
   * Returns stdout; a failure throws with git's words (a refused login said so in plain words).
   */
  async run(cwd: string, args: string[], limits: GitLimits, watch?: string, cancel?: AbortSignal): Promise<string> {
    const stop = new AbortController();
    const onCancel = () => stop.abort();
    cancel?.addEventListener('abort', onCancel, { once: true });
    if (cancel?.aborted) stop.abort();
    let tooLarge = false;
    const poll = watch
      ? setInterval(() => {
          void treeBytes(watch).then((n) => {
            if (n > limits.maxBytes && !tooLarge) {
              tooLarge = true;
              stop.abort();
            }
          });
        }, SIZE_POLL_MS)
      : undefined;
    const argv = ['git', '-c', 'core.symlinks=false', '-c', 'protocol.file.allow=never', ...args];
    const res = await run(argv, {
      timeoutMs: limits.timeoutMs,
      env: this.env,
      cwd,
      signal: stop.signal,
      graceMs: 1000,
    }).finally(() => {
      clearInterval(poll);
      cancel?.removeEventListener('abort', onCancel);
    });
    if (cancel?.aborted) throw new UpstreamError(`git ${args[0]} was cancelled.`);
    if (tooLarge || (watch && (await treeBytes(watch)) > limits.maxBytes))
      throw new PayloadTooLargeError(
        `The repository is larger than the ${Math.round(limits.maxBytes / 1024 / 1024)} MB Berth fetches (GIT_MAX_MB); it was not kept.`,
      );
    if (res.timedOut)
      throw new UpstreamTimeoutError(`git ${args[0]} did not finish within ${Math.round(limits.timeoutMs / 1000)} s.`);
    if (res.code !== 0) {
      const words = (res.stderr || res.stdout).trim().split('\n').slice(-6).join('\n');
      const refused = AUTH_REFUSED.test(words) ? ' (authentication failed: add or fix the git credential)' : '';
      throw new UpstreamError(`git ${args[0]} failed${refused}: ${words || `exit ${res.code}`}`);
    }
    return res.stdout;
  }
}
