import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FromGitResult, GitDeployResult, GitHookResult, GitStatus, StackDetail } from '@berth/contract';
import { until } from './apps-fixtures';
import { createTestApp, type TestApp } from './helpers/app';
import { testEngine } from './helpers/engine';
import { gitHarness, TestRepo } from './helpers/git-repos';

/** Swarm stacks from git, on the harness's single-node swarm engine (the app's `local` here). */
const host = process.env.BERTH_TEST_SWARM_HOST;
const swarm = (args: string[]) =>
  spawnSync(process.env.BERTH_TEST_DOCKER_CLI || 'docker', ['--host', host!, ...args], {
    encoding: 'utf8',
    timeout: 60_000,
  }).stdout;

const stackFile = (greeting: string) => `services:
  web:
    image: ${testEngine().image}
    command: ["sh", "-c", "trap 'exit 0' TERM; sleep 600 & wait"]
    environment:
      GREETING: ${greeting}
    configs:
      - source: app
        target: /app.conf
configs:
  app:
    file: ./app.conf
`;

let t: TestApp;
let repo: TestRepo;
const name = `berth-t-gstack-${Math.random().toString(36).slice(2, 8)}`;

beforeAll(async () => {
  if (!host) throw new Error('BERTH_TEST_SWARM_HOST is unset: source .test-env/env.sh');
  gitHarness();
  repo = new TestRepo('stack');
  // The config file sits beside the stack file in the repository: relative paths resolve there.
  repo.commit({ 'deploy/stack.yml': stackFile('one'), 'deploy/app.conf': 'mode=1\n', 'README.md': 'x\n' }, 'first');
  t = await createTestApp({ DOCKER_HOST: host });
});
afterAll(async () => {
  swarm(['stack', 'rm', name]);
  repo?.remove();
  await t?.close();
});

const sourceRows = () =>
  t.ctx.db.prepare("SELECT COUNT(*) FROM git_sources WHERE kind = 'stack' AND name = ?").pluck().get(name);
const hookRows = (id: string) => t.ctx.db.prepare('SELECT COUNT(*) FROM git_hooks WHERE id = ?').pluck().get(id);

describe('stacks from git', () => {
  it('creates a stack from git, deploys it with docker stack deploy, a GitLab webhook deploys a pushed change; removing it forgets source and webhook', async () => {
    const body = { name, url: repo.url('daemon'), ref: 'main', path: 'deploy/stack.yml', sync: { policy: 'webhook' } };
    // docker stack deploy reads no .env, so a stack takes no env_file; nothing is left of the try.
    const refused = await t.client.post<{ code: string }>('/api/swarm/stacks/from-git', {
      ...body,
      env_file: 'deploy/app.conf',
    });
    expect(refused.status, refused.text).toBe(400);
    expect((await t.client.get(`/api/swarm/stacks/${name}`)).status).toBe(404);

    const created = await t.client.post<FromGitResult>('/api/swarm/stacks/from-git', body);
    expect(created.status, created.text).toBe(200);
    const secret = created.body.webhook_secret!;
    const hookUrl = created.body.git.webhook_url!;
    expect(secret).toBeTruthy();
    // Stored, not deployed: the stack's file is the checkout's.
    const stored = await t.client.get<StackDetail>(`/api/swarm/stacks/${name}`);
    expect(stored.body).toMatchObject({ hasFile: true, services: 0, content: stackFile('one') });
    expect((await t.client.get<{ name: string }[]>('/api/swarm/stacks')).body.map((s) => s.name)).toContain(name);

    const deployed = await t.client.post<GitDeployResult>(`/api/swarm/stacks/${name}/git/deploy`);
    expect(deployed.status, deployed.text).toBe(200);
    expect(deployed.body.plan.services).toEqual([expect.objectContaining({ name: 'web', action: 'create' })]);
    expect(deployed.body.result).toMatchObject({
      name,
      output: expect.stringContaining(`Creating service ${name}_web`),
    });
    expect(deployed.body.git).toMatchObject({ deployed_commit: created.body.git.head_commit, local_edits: false });
    const env = () =>
      swarm(['service', 'inspect', '-f', '{{json .Spec.TaskTemplate.ContainerSpec.Env}}', `${name}_web`]);
    expect(env()).toContain('GREETING=one');

    const second = repo.commit({ 'deploy/stack.yml': stackFile('two') }, 'greeting two');
    const status = await t.client.get<GitStatus>(`/api/swarm/stacks/${name}/git`);
    expect(status.body).toMatchObject({ behind: 1, latest_commit: second });
    const push = JSON.stringify({ ref: 'refs/heads/main', after: second });
    const wrong = await t.anon().post(hookUrl, push, { 'content-type': 'application/json', 'x-gitlab-token': 'nope' });
    expect(wrong.status).toBe(401);
    const hook = await t.anon().post<GitHookResult>(hookUrl, push, {
      'content-type': 'application/json',
      'x-gitlab-token': secret,
    });
    expect(hook.status, hook.text).toBe(200);
    expect(hook.body.results).toEqual([
      expect.objectContaining({ kind: 'stack', project: name, outcome: 'deploying' }),
    ]);
    await until(
      async () => (await t.client.get<GitStatus>(`/api/swarm/stacks/${name}/git`)).body.deployed_commit === second,
      'the webhook deploy of the stack',
      60_000,
    );
    expect(env()).toContain('GREETING=two');
    const audit = t.services.audit.list({ limit: 1000 }).find((e) => e.target === `stack ${name}`);
    expect(audit?.summary).toMatch(/plan: web: recreate/);

    // The stack's editor writes into the checkout: a local edit, never pushed back, and discarded.
    const edited = await t.client.post(`/api/swarm/stacks/${name}`, { content: stackFile('edited') });
    expect(edited.status, edited.text).toBe(200);
    const drift = await t.client.get<GitStatus>(`/api/swarm/stacks/${name}/git`);
    expect(drift.body).toMatchObject({ local_edits: true, edited_files: ['deploy/stack.yml'] });
    const discarded = await t.client.post<GitStatus>(`/api/swarm/stacks/${name}/git/discard`);
    expect(discarded.body.local_edits).toBe(false);

    const removed = await t.client.delete(`/api/swarm/stacks/${name}`);
    expect(removed.status, removed.text).toBe(200);
    expect(sourceRows()).toBe(0);
    expect(hookRows(hookUrl.split('/').pop()!)).toBe(0);
  });
});
