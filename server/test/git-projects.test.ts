import { createHmac } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { FromGitResult, GitCredential, GitDeployResult, GitStatus } from '@berth/contract';
import { createTestApp, type TestApp } from './helpers/app';
import { testEngine, tryDockerCli } from './helpers/engine';
import { projectContainers, trackedProjects } from './helpers/compose-projects';
import { bigRepo, gitHarness, TestRepo } from './helpers/git-repos';

let t: TestApp;
const logLines: string[] = [];
const projects = trackedProjects();
const repos: TestRepo[] = [];
/** A second tag of the test image, on the engine only (so `up` needs no registry). */
const V2 = 'berth-test-git/busybox:v2';

const composeFile = (image: string) =>
  `services:\n  web:\n    image: ${image}\n    command: ["sleep", "3600"]\n    stop_signal: SIGKILL\n`;

function newRepo(feature: string, files: Record<string, string>): TestRepo {
  const repo = new TestRepo(feature);
  repos.push(repo);
  repo.commit(files, 'first');
  return repo;
}

const sign = (secret: string, body: string) => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

async function waitFor<T>(what: string, fn: () => Promise<T | null>, ms = 60_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v !== null) return v;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

beforeAll(async () => {
  gitHarness();
  const { image } = testEngine();
  tryDockerCli(['tag', image, V2]);
  // A 20 MB cap: the 200 MB repository is refused after 20 MB fetched rather than 100 (every other repository is tiny).
  t = await createTestApp(
    { LOG_LEVEL: 'debug', GIT_MAX_MB: '20' },
    {},
    { logStream: { write: (l) => void logLines.push(l) } },
  );
});
afterEach(() => projects.cleanup());
afterAll(async () => {
  await t?.close();
  for (const r of repos) r.remove();
});

describe('projects from git', () => {
  it('git daemon: create, deploy, a pushed image tag shows "behind by 1", the GitHub webhook deploys it (a wrong signature is refused)', async () => {
    const { image } = testEngine();
    const repo = newRepo('daemon', {
      'web/compose.yaml': composeFile(image),
      'other/compose.yaml': composeFile(image),
      'README.md': 'docs\n',
    });
    const name = projects.name('gitd');
    const fromGit = (project: string, file: string) =>
      t.client.post<FromGitResult>('/api/compose/from-git', {
        name: project,
        url: repo.url('daemon'),
        ref: 'main',
        path: file,
        sync: { policy: 'webhook' },
      });
    const created = await fromGit(name, 'web/compose.yaml');
    expect(created.status, created.text).toBe(200);
    const { git, webhook_secret: secret } = created.body;
    expect(secret).toBeTruthy();
    expect(git.webhook_url).toMatch(/^\/api\/hooks\/git\/[0-9a-f]{32}$/);
    // A second project of the same repository shares its webhook (its secret is not shown again).
    const otherName = projects.name('gitd2');
    const other = await fromGit(otherName, 'other/compose.yaml');
    expect(other.body).toMatchObject({ webhook_secret: null, git: { webhook_url: git.webhook_url } });
    // A project not from git has no git state (null, not an error); no project is a 404.
    const plain = projects.name('plain');
    expect((await t.client.post('/api/compose/', { name: plain, content: composeFile(image) })).status).toBe(200);
    expect((await t.client.get(`/api/compose/${plain}/git`)).text).toBe('null');
    expect((await t.client.get(`/api/compose/${plain}-none/git`)).status).toBe(404);
    // The working copy is inside the project's folder, the listing shows the project once.
    const list = await t.client.get<{ name: string }[]>('/api/compose/');
    expect(list.body.filter((p) => p.name.includes(name)).map((p) => p.name)).toEqual([name]);

    const deployed = await t.client.post<GitDeployResult>(`/api/compose/${name}/git/deploy`);
    expect(deployed.status, deployed.text).toBe(200);
    expect(deployed.body.plan.services).toEqual([expect.objectContaining({ name: 'web', action: 'create' })]);
    expect(deployed.body.git.deployed_commit).toBe(git.head_commit);
    expect(projectContainers(name).map((c) => c.state)).toEqual(['running']);

    const second = repo.commit({ 'web/compose.yaml': composeFile(V2) }, 'image v2');
    const status = await t.client.get<GitStatus>(`/api/compose/${name}/git`);
    expect(status.body).toMatchObject({ behind: 1, ahead: 0, latest_commit: second, local_edits: false });

    const body = JSON.stringify({ ref: 'refs/heads/main', after: second });
    const hook = git.webhook_url!;
    const wrong = await t.anon().post(hook, body, {
      'content-type': 'application/json',
      'x-hub-signature-256': sign('not-the-secret', body),
    });
    expect(wrong.status, wrong.text).toBe(401);
    const ok = await t.anon().post<{ results: { project: string; outcome: string }[] }>(hook, body, {
      'content-type': 'application/json',
      'x-github-event': 'push',
      'x-hub-signature-256': sign(secret!, body),
    });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body.results).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ project: name, outcome: 'deploying' }),
        expect.objectContaining({ project: otherName, outcome: 'unchanged' }),
      ]),
    );
    await waitFor('the webhook deploy', async () => {
      const s = await t.client.get<GitStatus>(`/api/compose/${name}/git`);
      return s.body.deployed_commit === second ? s.body : null;
    });
    const image2 = tryDockerCli(['inspect', '-f', '{{.Config.Image}}', projectContainers(name)[0]!.name]).stdout.trim();
    expect(image2).toBe(V2);
    // Each deploy from git is a revision carrying its commit, newest first.
    const revisions = await t.client.get<{ commit: string | null; source: string }[]>(`/api/compose/${name}/revisions`);
    expect(revisions.body.map((r) => [r.source, r.commit])).toEqual([
      ['git', second],
      ['git', git.head_commit],
    ]);
    const entry = t.services.audit
      .list({ limit: 1000 })
      .find((e) => e.route === 'git auto-deploy' && e.target === name);
    expect(entry?.summary).toMatch(/plan: web: recreate berth-test-git\/busybox:v2/);

    // A push that touches none of its files leaves it be.
    const third = repo.commit({ 'README.md': 'more docs\n' }, 'docs');
    const body3 = JSON.stringify({ ref: 'refs/heads/main', after: third });
    const again = await t.anon().post<{ results: { outcome: string }[] }>(hook, body3, {
      'content-type': 'application/json',
      'x-gitea-signature': sign(secret!, body3).slice('sha256='.length),
    });
    expect(again.body.results.map((r) => r.outcome)).toEqual(['unchanged', 'unchanged']);

    // Deleting a project forgets its source; the shared webhook goes with the last project using it.
    const hookId = hook.split('/').pop()!;
    const rows = (project: string) =>
      t.ctx.db.prepare('SELECT COUNT(*) FROM git_sources WHERE name = ?').pluck().get(project);
    const hooks = () => t.ctx.db.prepare('SELECT COUNT(*) FROM git_hooks WHERE id = ?').pluck().get(hookId);
    expect((await t.client.post(`/api/compose/${otherName}/actions/delete`)).status).toBe(200);
    expect([rows(otherName), rows(name), hooks()]).toEqual([0, 1, 1]);
    expect((await t.client.post(`/api/compose/${name}/actions/delete`)).status).toBe(200);
    expect([rows(name), hooks()]).toEqual([0, 0]);
    expect((await t.anon().post(hook, body3, { 'x-gitea-signature': 'x' })).status).toBe(401);
  });

  it('http-backend with basic auth: a token credential fetches; the token is in no response, log, audit entry or .git/config', async () => {
    const h = gitHarness();
    const repo = newRepo('http', { 'deploy/app/compose.yaml': composeFile(testEngine().image) });
    const name = projects.name('gith');
    const body = {
      name,
      url: repo.url('http'),
      ref: 'main',
      path: 'deploy/app/compose.yaml',
      sync: { policy: 'manual' },
    };
    const refused = await t.client.post<{ code: string }>('/api/compose/from-git', body);
    expect(refused.status, refused.text).toBe(502);
    expect(refused.body.code).toBe('upstream_error');

    const cred = await t.client.post<GitCredential>('/api/git/credentials', {
      kind: 'https',
      name: 'harness http',
      username: h.httpUser,
      token: h.httpToken,
    });
    expect(cred.status, cred.text).toBe(200);
    const created = await t.client.post<FromGitResult>('/api/compose/from-git', {
      ...body,
      credential_id: cred.body.id,
    });
    expect(created.status, created.text).toBe(200);
    expect(created.body.webhook_secret).toBeNull();
    // A pull fetches over the same transport as a deploy (whose up the git daemon test runs).
    const second = repo.commit({ 'deploy/app/compose.yaml': composeFile(V2) }, 'v2');
    const pulled = await t.client.post<{ git: GitStatus }>(`/api/compose/${name}/git/pull`);
    expect(pulled.status, pulled.text).toBe(200);
    expect(pulled.body.git.head_commit).toBe(second);

    // PATCH of the source: a ref the remote lacks and a file the checkout lacks change nothing; the sync policy changes.
    const patch = (b: object) => t.client.patch<FromGitResult & { code: string }>(`/api/compose/${name}/git`, b);
    expect((await patch({ ref: 'no-such-branch' })).status).toBe(502);
    const noFile = await patch({ path: 'deploy/none.yaml' });
    expect(noFile.status, noFile.text).toBe(400);
    expect((await patch({ ref: 'x y' })).body.code).toBe('validation_error');
    const hooked = await patch({ sync: { policy: 'webhook' } });
    expect(hooked.status, hooked.text).toBe(200);
    expect(hooked.body.webhook_secret).toBeTruthy();
    expect(hooked.body.git).toMatchObject({
      ref: 'main',
      path: 'deploy/app/compose.yaml',
      sync: { policy: 'webhook' },
    });
    const polled = await patch({ sync: { policy: 'poll', interval_minutes: 10 } });
    expect(polled.body.git).toMatchObject({ sync: { policy: 'poll', interval_minutes: 10 }, webhook_url: null });
    expect((await t.client.get<GitStatus>(`/api/compose/${name}/git`)).body.local_edits).toBe(false);
    // Polling: nothing before the interval has passed; after it, a fetch (no new commit: unchanged).
    const polls = async (at: number) =>
      (await t.services.git.sync.pollDue(at)).filter((r) => r.project === name).map((r) => r.outcome);
    expect(await polls(Date.now())).toEqual([]);
    expect(await polls(Date.now() + 11 * 60_000)).toEqual(['unchanged']);

    const responses = [
      cred.text,
      created.text,
      pulled.text,
      hooked.text,
      (await t.client.get('/api/git/credentials')).text,
      (await t.client.get(`/api/git/credentials/${cred.body.id}`)).text,
      (await t.client.get(`/api/compose/${name}/git`)).text,
    ];
    const folder = path.join(t.ctx.config.composeDir, name);
    const gitConfig = fs.readFileSync(path.join(folder, '.git', 'config'), 'utf8');
    const audit = JSON.stringify(t.services.audit.list({ limit: 1000 }));
    for (const where of [...responses, gitConfig, audit, logLines.join('')]) expect(where).not.toContain(h.httpToken);
  });

  it('ssh with a deploy key: the host key is kept on first sight, and a changed one is refused', async () => {
    const h = gitHarness();
    if (!h.ssh || !h.sshKey) throw new Error('no ssh:// git in the harness (scripts/test-env-git.sh needs its sshd)');
    const repo = newRepo('ssh', { 'compose.yaml': composeFile(testEngine().image) });
    const name = projects.name('gits');
    const key = fs.readFileSync(h.sshKey, 'utf8');
    const cred = await t.client.post<GitCredential>('/api/git/credentials', {
      kind: 'ssh',
      name: 'deploy',
      private_key: key,
    });
    expect(cred.body.known_hosts).toEqual([]);
    const created = await t.client.post<FromGitResult>('/api/compose/from-git', {
      name,
      url: repo.url('ssh'),
      ref: 'main',
      credential_id: cred.body.id,
      sync: { policy: 'poll', interval_minutes: 5 },
    });
    expect(created.status, created.text).toBe(200);
    const kept = await t.client.get<GitCredential>(`/api/git/credentials/${cred.body.id}`);
    expect(kept.body.known_hosts).toEqual([expect.stringMatching(/^\[127\.0\.0\.1\]:\d+ ssh-ed25519 /)]);
    expect(kept.text).not.toContain('PRIVATE KEY');
    // A pull fetches over ssh again (the deploy's up is the git daemon test's).
    expect((await t.client.post(`/api/compose/${name}/git/pull`)).status).toBe(200);

    const host = kept.body.known_hosts[0]!.split(' ')[0];
    const other = 'AAAAC3NzaC1lZDI1NTE5AAAAIPvV7ZSr1GZ9zDgXbRXF0zWk9cHhCqzFJZB6hOqvYl3X';
    await t.client.patch(`/api/git/credentials/${cred.body.id}`, { known_hosts: `${host} ssh-ed25519 ${other}` });
    const pulled = await t.client.post<{ detail: string }>(`/api/compose/${name}/git/pull`);
    expect(pulled.status).toBe(502);
    expect(pulled.body.detail).toMatch(/host key/i);
  });

  it('editing a git-backed project marks local edits; a pull is refused until they are discarded', async () => {
    const { image } = testEngine();
    const repo = newRepo('drift', { 'compose.yaml': composeFile(image) });
    const name = projects.name('gitdrift');
    const created = await t.client.post('/api/compose/from-git', {
      name,
      url: repo.url('daemon'),
      ref: 'main',
      sync: { policy: 'manual' },
    });
    expect(created.status, created.text).toBe(200);
    const edit = await t.client.post(`/api/compose/${name}/edit`, { name, content: composeFile(V2) });
    expect(edit.status, edit.text).toBe(200);
    const drifted = await t.client.get<GitStatus>(`/api/compose/${name}/git`);
    expect(drifted.body).toMatchObject({ local_edits: true, edited_files: ['compose.yaml'] });
    const pull = await t.client.post<{ detail: string }>(`/api/compose/${name}/git/pull`);
    expect(pull.status).toBe(409);
    expect(pull.body.detail).toMatch(/local edits.*does not push/);
    const discarded = await t.client.post<GitStatus>(`/api/compose/${name}/git/discard`);
    expect(discarded.body.local_edits).toBe(false);
    expect((await t.client.get<{ content: string }>(`/api/compose/${name}`)).body.content).toBe(composeFile(image));
  });

  it('refuses a compose file that includes ../../etc/passwd, and leaves no folder', async () => {
    const repo = newRepo('include', {
      'stack/compose.yaml': `include:\n  - ../../etc/passwd\nservices:\n  a:\n    image: ${testEngine().image}\n`,
    });
    const name = projects.name('gitinc');
    const res = await t.client.post<{ detail: string; code: string }>('/api/compose/from-git', {
      name,
      url: repo.url('daemon'),
      ref: 'main',
      path: 'stack/compose.yaml',
      sync: { policy: 'manual' },
    });
    expect(res.status, res.text).toBe(400);
    expect(res.body.detail).toMatch(/include\[0\]: \.\.\/\.\.\/etc\/passwd is outside the project folder/);
    expect(fs.existsSync(path.join(t.ctx.config.composeDir, name))).toBe(false);
    expect(fs.readdirSync(t.ctx.config.composeDir).filter((f) => f.startsWith('.berth-git-'))).toEqual([]);
  });

  it('refuses a 200 MB repository at the size cap', async () => {
    const big = bigRepo(200);
    const name = projects.name('gitbig');
    const res = await t.client.post<{ detail: string }>('/api/compose/from-git', {
      name,
      url: `${gitHarness().daemon}/${big}`,
      ref: 'main',
      sync: { policy: 'manual' },
    });
    expect(res.status, res.text).toBe(413);
    expect(res.body.detail).toMatch(/larger than the 20 MB/);
    expect(fs.existsSync(path.join(t.ctx.config.composeDir, name))).toBe(false);
  }, 120_000);
});
