import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  AppRevision,
  AppRollbackResult,
  ProjectRevision,
  ProjectRevisionDetail,
  ProjectRevisionDiff,
  ProjectRollbackResult,
  User,
} from '@berth/contract';
import { inspect } from './apps-fixtures';
import { createTestApp, REAUTH, type TestApp, type TestClient } from './helpers/app';
import { testRepository } from './helpers/auto-update';
import { cleanupProject, projectName } from './helpers/compose-projects';
import { dockerCli, IDLE_COMMAND, tryDockerCli } from './helpers/engine';

let t: TestApp;
let viewer: TestClient;
const repo = testRepository('rev', 'web');
const name = projectName('rev');
const base = `/api/compose/${name}`;
const appName = `${name}-app`;

const yaml = (tag: string) => `services:
  web:
    image: ${repo.tagged(tag)}
    command: ["sleep", "3600"]
    stop_signal: SIGKILL
    environment:
      INLINE_SECRET: inline-value-${tag}
`;

/** The image id the project's web container runs. */
const running = () =>
  inspect<{ Image: string }>(
    dockerCli(['ps', '-aq', '--filter', `label=com.docker.compose.project=${name}`])
      .trim()
      .split('\n')[0]!,
  ).Image;

async function upWith(tag: string, env: string): Promise<void> {
  const edit = await t.client.post(`${base}/edit`, { name, content: yaml(tag) });
  expect(edit.status, edit.text).toBe(200);
  const put = await t.client.request('PUT', `${base}/env`, { content: env });
  expect(put.status, put.text).toBe(200);
  const up = await t.client.post(`${base}/actions/up`);
  expect(up.status, up.text).toBe(200);
}

const revisions = async () => {
  const res = await t.client.get<ProjectRevision[]>(`${base}/revisions`);
  expect(res.status, res.text).toBe(200);
  return res.body;
};

beforeAll(async () => {
  t = await createTestApp({ REVISIONS_KEPT: '3' });
  repo.publish('', 'v1');
  repo.publish('', 'v2');
  const created = await t.client.post('/api/compose/', { name, content: yaml('v1'), env: 'TOKEN=alpha-secret\n' });
  expect(created.status, created.text).toBe(200);
  const up = await t.client.post(`${base}/actions/up`);
  expect(up.status, up.text).toBe(200);
  await upWith('v2', 'TOKEN=bravo-secret\nADDED=1\n');
  const made = await t.client.post<User>('/api/users', {
    email: 'rev-viewer@berth.test',
    password: 'viewer-password-long',
    role: 'viewer',
    ...REAUTH,
  });
  expect(made.status, made.text).toBe(200);
  viewer = t.anon();
  await viewer.login('rev-viewer@berth.test', 'viewer-password-long');
}, 180_000);

afterAll(async () => {
  cleanupProject(name);
  tryDockerCli(['rm', '-f', appName, `${appName}-r`]);
  await repo.remove();
  await t?.close();
});

describe('project revisions', () => {
  it('records each up with its files, sealed .env and the digest each service ran', async () => {
    const list = await revisions();
    expect(list.map((r) => [r.rev, r.source, r.outcome, r.created_by])).toEqual([
      [2, 'up', 'success', 'admin@berth.test'],
      [1, 'up', 'success', 'admin@berth.test'],
    ]);
    const repository = repo.tagged('x').replace(/:x$/, '');
    expect(list[1]!.images).toEqual([
      { service: 'web', image: repo.tagged('v1'), digest: `${repository}@${repo.digests[0]}` },
    ]);
    expect(list[0]!.images[0]!.digest).toBe(`${repository}@${repo.digests[1]}`);
    // Sealed at rest: the database holds no .env value.
    const raw = t.ctx.db.prepare('SELECT env_sealed FROM project_revisions').pluck().all().join('\n');
    expect(raw).not.toContain('alpha-secret');
    const one = await t.client.get<ProjectRevisionDetail>(`${base}/revisions/1`);
    expect(one.body).toMatchObject({ rev: 1, env: 'TOKEN=alpha-secret\n', env_values: true });
    expect(one.body.content).toBe(yaml('v1'));
    expect((await t.client.get(`${base}/revisions/99`)).status).toBe(404);
  });

  it('diffs two revisions: file, .env keys, digests; a viewer reads neither .env nor environment values', async () => {
    const diff = await t.client.get<ProjectRevisionDiff>(`${base}/revisions/1/diff/2`);
    expect(diff.status, diff.text).toBe(200);
    expect(diff.body.env).toEqual({ added: ['ADDED'], removed: [], changed: ['TOKEN'] });
    expect(diff.body.patch).toContain(`-    image: ${repo.tagged('v1')}`);
    expect(diff.body.patch).toContain(`+    image: ${repo.tagged('v2')}`);
    expect(diff.body.images).toHaveLength(1);
    expect(diff.body.images[0]!.from!.digest).not.toBe(diff.body.images[0]!.to!.digest);
    expect(diff.body.to.env).toContain('bravo-secret');

    const seen = await viewer.get<ProjectRevisionDiff>(`${base}/revisions/1/diff/2`);
    expect(seen.status, seen.text).toBe(200);
    expect(seen.body.env).toEqual(diff.body.env);
    expect(seen.body.to.env_values).toBe(false);
    for (const secret of ['alpha-secret', 'bravo-secret', 'inline-value-v1', 'inline-value-v2'])
      expect(seen.text).not.toContain(secret);
    expect(seen.body.patch).toContain(`+    image: ${repo.tagged('v2')}`);
  });

  it('rolls back to revision 1: plan first, then its files, .env and digest, health-gated, recorded as a new revision', async () => {
    expect(running()).toBe(repo.images[1]);
    // The tag moves on (a new push under v1): only the recorded digest brings back what revision 1 ran.
    repo.publish('', 'v1');
    const dry = await t.client.post<ProjectRollbackResult>(`${base}/revisions/1/rollback`, { dry_run: true });
    expect(dry.status, dry.text).toBe(200);
    expect(dry.body.revision).toBeNull();
    expect(dry.body.plan.services).toEqual([expect.objectContaining({ name: 'web', action: 'recreate' })]);
    expect(running()).toBe(repo.images[1]);
    expect((await revisions()).length).toBe(2);
    expect((await viewer.post(`${base}/revisions/1/rollback`, { dry_run: true })).status).toBe(403);

    const done = await t.client.post<ProjectRollbackResult>(`${base}/revisions/1/rollback`, {});
    expect(done.status, done.text).toBe(200);
    expect(done.body.revision).toMatchObject({ rev: 3, source: 'rollback', outcome: 'success', rollback_of: 1 });
    expect(running()).toBe(repo.images[0]);
    // The tag points at the image that runs again, so a later up by tag keeps it.
    expect(dockerCli(['image', 'inspect', '--format', '{{.Id}}', repo.tagged('v1')]).trim()).toBe(repo.images[0]);
    expect(done.body.revision!.images[0]!.digest).toBe((await revisions())[2]!.images[0]!.digest);
    const dir = path.join(t.ctx.config.composeDir, name);
    expect(fs.readFileSync(path.join(dir, 'compose.yaml'), 'utf8')).toBe(yaml('v1'));
    expect(fs.readFileSync(path.join(dir, '.env'), 'utf8')).toBe('TOKEN=alpha-secret\n');
  });

  it('keeps the newest REVISIONS_KEPT per project', async () => {
    expect((await t.client.post(`${base}/actions/up`)).status).toBe(200);
    expect((await revisions()).map((r) => r.rev)).toEqual([4, 3, 2]);
  });
});

describe('app revisions', () => {
  const deploy = async (tag: string, greeting: string, edit: boolean) => {
    const res = await t.client.post('/api/apps/deploy', {
      name: appName,
      image: repo.tagged(tag),
      restart_policy: 'unless-stopped',
      command: IDLE_COMMAND,
      labels: [{ label: 'berth.test', value: '1' }],
      env: [{ name: 'GREETING', default: greeting }],
      ...(edit ? { edit: true, id: appName } : {}),
    });
    expect(res.status, res.text).toBe(200);
  };
  const app = (n = appName) => inspect<{ Id: string; Image: string; Config: { Env: string[]; Image: string } }>(n);

  it('keeps each deploy and edit; a rollback recreates the earlier spec on its digest', async () => {
    await deploy('v2', 'hello', false);
    await deploy('v1', 'bonjour', true);
    const list = await t.client.get<AppRevision[]>(`/api/apps/${appName}/revisions`);
    expect(list.status, list.text).toBe(200);
    expect(list.body.map((r) => [r.rev, r.source, r.outcome])).toEqual([
      [2, 'edit', 'success'],
      [1, 'deploy', 'success'],
    ]);
    expect(list.body[1]!.digest).toContain(repo.digests[1]!);
    const raw = t.ctx.db.prepare('SELECT spec_sealed FROM app_revisions').pluck().all().join('\n');
    expect(raw).not.toContain('hello');
    expect(app().Config.Env).toContain('GREETING=bonjour');

    const back = await t.client.post<AppRollbackResult>(`/api/apps/${appName}/revisions/1/rollback`);
    expect(back.status, back.text).toBe(200);
    expect(back.body.revision).toMatchObject({ rev: 3, source: 'rollback', outcome: 'success', rollback_of: 1 });
    const now = app();
    expect(now.Image).toBe(repo.images[1]);
    expect(now.Config.Image).toBe(list.body[1]!.digest);
    expect(now.Config.Env).toContain('GREETING=hello');
    expect((await viewer.post(`/api/apps/${appName}/revisions/1/rollback`)).status).toBe(403);
  });

  it('keeps a rename, a resources change and a one-click update as revisions; a rollback undoes the resources change', async () => {
    const renamed = `${appName}-r`;
    const ren = await t.client.post(`/api/apps/${appName}/rename`, { new_name: renamed });
    expect(ren.status, ren.text).toBe(200);
    const limited = await t.client.patch(`/api/apps/${renamed}/resources`, { cpu_shares: 512 });
    expect(limited.status, limited.text).toBe(200);
    const updated = await t.client.post(`/api/apps/${renamed}/update`);
    expect(updated.status, updated.text).toBe(200);
    const shares = () => inspect<{ HostConfig: { CpuShares: number } }>(renamed).HostConfig.CpuShares;
    expect(shares()).toBe(512);
    // The history follows the app to its new name (numbering on from 3; REVISIONS_KEPT is 3 here).
    const list = await t.client.get<AppRevision[]>(`/api/apps/${renamed}/revisions`);
    expect(list.body.map((r) => [r.rev, r.source, r.created_by])).toEqual([
      [6, 'update', 'admin@berth.test'],
      [5, 'resources', 'admin@berth.test'],
      [4, 'rename', 'admin@berth.test'],
    ]);
    expect((await t.client.get<AppRevision[]>(`/api/apps/${appName}/revisions`)).body).toEqual([]);

    const back = await t.client.post<AppRollbackResult>(`/api/apps/${renamed}/revisions/4/rollback`);
    expect(back.status, back.text).toBe(200);
    expect(back.body.revision).toMatchObject({ rev: 7, source: 'rollback', rollback_of: 4 });
    expect(shares()).toBe(0);
    expect(app(renamed).Config.Env).toContain('GREETING=hello');
  });
});
