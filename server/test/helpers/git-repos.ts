import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** The harness's git servers (scripts/test-env-git.sh), or a clear failure naming the script. */
export function gitHarness() {
  const e = process.env;
  const repos = e.BERTH_TEST_GIT_REPOS;
  if (!repos || !e.BERTH_TEST_GIT_DAEMON_URL || !e.BERTH_TEST_GIT_HTTP_URL)
    throw new Error('The git test servers are not running: run scripts/test-env-git.sh and source .test-env/env.sh');
  return {
    repos,
    daemon: e.BERTH_TEST_GIT_DAEMON_URL,
    http: e.BERTH_TEST_GIT_HTTP_URL,
    httpUser: e.BERTH_TEST_GIT_HTTP_USER ?? '',
    httpToken: e.BERTH_TEST_GIT_HTTP_TOKEN ?? '',
    ssh: e.BERTH_TEST_GIT_SSH_URL ?? null,
    sshKey: e.BERTH_TEST_GIT_SSH_KEY ?? null,
  };
}

const git = (cwd: string, args: string[]) =>
  execFileSync('git', ['-c', 'user.name=Berth Test', '-c', 'user.email=test@berth.test', ...args], {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    maxBuffer: 16 * 1024 * 1024,
  });

/** A bare repository served by every harness server, and a working clone to commit and push from. */
export class TestRepo {
  readonly name: string;
  readonly bare: string;
  readonly work: string;

  constructor(feature: string) {
    const h = gitHarness();
    this.name = `berth-t-${feature}-${randomBytes(3).toString('hex')}.git`;
    this.bare = path.join(h.repos, this.name);
    this.work = fs.mkdtempSync(path.join(os.tmpdir(), 'berth-git-work-'));
    git(h.repos, ['init', '-q', '--bare', '-b', 'main', this.name]);
    git(this.work, ['init', '-q', '-b', 'main']);
  }

  /** Writes files (path → content), commits them and pushes main; returns the commit. */
  commit(files: Record<string, string>, message = 'change'): string {
    for (const [file, content] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(this.work, file)), { recursive: true });
      fs.writeFileSync(path.join(this.work, file), content);
    }
    git(this.work, ['add', '-A']);
    git(this.work, ['commit', '-q', '-m', message]);
    git(this.work, ['push', '-q', this.bare, 'HEAD:main']);
    return git(this.work, ['rev-parse', 'HEAD']).trim();
  }

  url(kind: 'daemon' | 'http' | 'ssh'): string {
    const h = gitHarness();
    if (kind === 'ssh') return `${h.ssh}/${this.name}`;
    return `${kind === 'daemon' ? h.daemon : h.http}/${this.name}`;
  }

  remove(): void {
    fs.rmSync(this.bare, { recursive: true, force: true });
    fs.rmSync(this.work, { recursive: true, force: true });
  }
}

/**
 * A repository whose one commit holds `mb` MB of random bytes (stored uncompressed, so it really
 * is that large). Made once and kept in the harness: making it costs seconds.
 */
export function bigRepo(mb: number): string {
  const h = gitHarness();
  const name = `berth-big-${mb}mb.git`;
  const bare = path.join(h.repos, name);
  if (fs.existsSync(path.join(bare, 'refs', 'heads', 'main')) || fs.existsSync(path.join(bare, 'packed-refs')))
    return name;
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'berth-git-big-'));
  try {
    fs.rmSync(bare, { recursive: true, force: true });
    git(h.repos, ['init', '-q', '--bare', '-b', 'main', name]);
    git(work, ['init', '-q', '-b', 'main']);
    fs.writeFileSync(path.join(work, 'compose.yaml'), 'services:\n  a:\n    image: busybox\n');
    const fd = fs.openSync(path.join(work, 'blob.bin'), 'w');
    for (let i = 0; i < mb; i++) fs.writeSync(fd, randomBytes(1024 * 1024));
    fs.closeSync(fd);
    git(work, ['-c', 'core.compression=0', 'add', '-A']);
    git(work, ['commit', '-q', '-m', 'big']);
    git(work, ['-c', 'pack.compression=0', 'push', '-q', bare, 'HEAD:main']);
    // Packed uncompressed, so serving it costs no compression time.
    git(bare, ['config', 'pack.compression', '0']);
    git(bare, ['repack', '-a', '-d', '-q']);
    return name;
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}
