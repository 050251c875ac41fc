import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App, AppAutoUpdate, AppUpdateCheck, AutoUpdateItem, ProjectAutoUpdate } from '@berth/contract';
import { createTestApp, type TestApp } from './helpers/app';
import { runAutoUpdate } from './helpers/auto-update';
import { cleanupProject, projectName } from './helpers/compose-projects';
import { dockerCli, IDLE_COMMAND, testEngine, tryDockerCli } from './helpers/engine';
import { privateRegistries } from './helpers/registries';
import { inspect } from './apps-fixtures';

interface Inspected {
  Id: string;
  Image: string;
  State: { Running: boolean };
  Config: { Image: string };
}

/**
 * Newer versions by tag (issue 33), against the harness's private registry (basic auth: every tag
 * list is read with the stored credential). One good image and one whose HEALTHCHECK fails are
 * built once; the good one is pushed as 1.0.0, 1.0.1, 1.1.0 and 2.0.0, the failing one as 2.1.0
 * and 1.2.0 when a test needs it.
 */
const r = privateRegistries();
const repo = `${r.basic}/private/versions-${randomBytes(4).toString('hex')}`;
const tagged = (tag: string) => `${repo}:${tag}`;
const app = `berth-t-versions-${randomBytes(4).toString('hex')}`;
const project = projectName('versions');
let t: TestApp;
let login: { env: { DOCKER_CONFIG: string } };
let good: string;
let failing: string;

const push = (image: string, ...tags: string[]) => {
  for (const tag of tags) {
    dockerCli(['tag', image, tagged(tag)]);
    const res = tryDockerCli(['push', '-q', tagged(tag)], { ...login, timeoutMs: 120_000 });
    expect(res.status, res.stderr).toBe(0);
  }
};

const runFor = async (name: string): Promise<AutoUpdateItem> =>
  (await runAutoUpdate(t.client)).results.find((i) => i.name === name)!;

const setApp = (body: Record<string, unknown>) =>
  t.client.request<AppAutoUpdate>('PUT', `/api/apps/${app}/auto-update`, {
    enabled: true,
    mode: 'update',
    schedule: null,
    settle_seconds: 1,
    ...body,
  });

beforeAll(async () => {
  t = await createTestApp();
  const made = await t.client.post('/api/registries', {
    name: 'versions',
    server_address: r.basic,
    username: r.user,
    password: r.password,
  });
  expect(made.status, made.text).toBe(200);
  const cfg = fs.mkdtempSync(path.join(t.dataDir, 'login-'));
  login = { env: { DOCKER_CONFIG: cfg } };
  const res = tryDockerCli(['login', '-u', r.user, '--password-stdin', r.basic], { ...login, input: r.password });
  expect(res.status, res.stderr).toBe(0);
  const build = (lines: string) =>
    dockerCli(['build', '-q', '--label', 'berth.test=1', '-'], {
      input: `FROM ${testEngine().image}\n${lines}LABEL berth.nonce="${Math.random()}"\n`,
      timeoutMs: 120_000,
    }).trim();
  good = build('');
  failing = build('HEALTHCHECK --interval=1s --timeout=1s --retries=1 CMD false\n');
  push(good, '1.0.0', '1.0.1', '1.1.0', '2.0.0');
});

afterAll(async () => {
  tryDockerCli(['rm', '-f', '-v', app]);
  cleanupProject(project);
  const tags = ['1.0.0', '1.0.1', '1.1.0', '1.2.0', '2.0.0', '2.1.0'].map(tagged);
  tryDockerCli(['rmi', '-f', ...tags, good, failing]);
  if (login) fs.rmSync(login.env.DOCKER_CONFIG, { recursive: true, force: true });
  await t?.close();
});

describe('newer versions by tag (issue 33)', () => {
  it('lists the newer tags of a private image with its credential; the list and the details show the newest', async () => {
    const deployed = await t.client.post('/api/apps/deploy', {
      name: app,
      image: tagged('1.0.0'),
      restart_policy: 'none',
      command: IDLE_COMMAND,
    });
    expect(deployed.status, deployed.text).toBe(200);
    const check = await t.client.get<AppUpdateCheck>(`/api/apps/${app}/updates`);
    expect(check.status, check.text).toBe(200);
    expect(check.body.update).toMatchObject({ newerTags: ['2.0.0', '1.1.0', '1.0.1'], tagsReason: null });
    expect(check.body.newerVersion).toBe('2.0.0');
    // The list and the details show the kept tag list without asking the registry again.
    const list = await t.client.get<App[]>('/api/apps');
    expect(list.body.find((a) => a.name === app)?.newerVersion).toBe('2.0.0');
    expect((await t.client.get<App>(`/api/apps/${app}`)).body.newerVersion).toBe('2.0.0');
  });

  it('moves the app 1.0.0 → 1.0.1 (patch) → 1.1.0 (minor) → 2.0.0 (major); notify mode only tells', async () => {
    const before = inspect<Inspected>(app);
    expect((await setApp({ mode: 'notify', version_policy: 'minor' })).body.effective.version_policy).toBe('minor');
    expect(await runFor(app)).toMatchObject({ result: 'update_available', to_tag: '1.1.0' });
    expect(inspect<Inspected>(app).Id).toBe(before.Id);

    for (const [policy, tag] of [
      ['patch', '1.0.1'],
      ['minor', '1.1.0'],
      ['major', '2.0.0'],
    ] as const) {
      await setApp({ version_policy: policy });
      const moved = await runFor(app);
      expect(moved, policy).toMatchObject({ result: 'updated', to_tag: tag });
      const now = inspect<Inspected>(app);
      expect([now.Config.Image, now.State.Running]).toEqual([tagged(tag), true]);
    }
  });

  it('puts the app back when the newer version fails its health check, then skips that version', async () => {
    const before = inspect<Inspected>(app);
    push(failing, '2.1.0');
    const rolled = await runFor(app);
    expect(rolled).toMatchObject({ result: 'rolled_back', to_tag: '2.1.0' });
    expect(rolled.reason).toMatch(/unhealthy/);
    const after = inspect<Inspected>(app);
    expect([after.Id, after.Config.Image, after.State.Running]).toEqual([before.Id, tagged('2.0.0'), true]);

    const skipped = await runFor(app);
    expect(skipped).toMatchObject({ result: 'up_to_date' });
    expect(skipped.reason).toMatch(/Skipped 2\.1\.0/);
    await setApp({ enabled: false });
  });

  it("moves a compose service by its own label's policy, changing the project file's tag, and back when it fails", async () => {
    const content = `services:
  app:
    image: ${tagged('1.0.0')} # kept by hand
    command: ["sleep", "3600"]
    stop_signal: SIGKILL
    labels:
      berth.auto-update.version-policy: minor
`;
    expect((await t.client.post('/api/compose/', { name: project, content })).status).toBe(200);
    const up = await t.client.post(`/api/compose/${project}/actions/up`);
    expect(up.status, up.text).toBe(200);
    const set = await t.client.request<ProjectAutoUpdate>('PUT', `/api/compose/${project}/auto-update`, {
      enabled: true,
      mode: 'update',
      schedule: null,
      settle_seconds: 1,
    });
    expect(set.body.services).toMatchObject([{ name: 'app', effective: { version_policy: 'minor' } }]);
    const file = async () => (await t.client.get<{ content: string }>(`/api/compose/${project}`)).body.content;

    expect(await runFor(`${project}/app`)).toMatchObject({ result: 'updated', to_tag: '1.1.0' });
    expect(await file()).toBe(content.replace(':1.0.0', ':1.1.0'));

    push(failing, '1.2.0');
    const rolled = await runFor(`${project}/app`);
    expect(rolled).toMatchObject({ result: 'rolled_back', to_tag: '1.2.0' });
    expect(await file()).toBe(content.replace(':1.0.0', ':1.1.0'));
    const id = dockerCli(['ps', '-q', '--filter', `label=com.docker.compose.project=${project}`]).trim();
    expect(inspect<Inspected>(id).Config.Image).toBe(tagged('1.1.0'));
    await t.client.request('PUT', `/api/compose/${project}/auto-update`, {
      enabled: false,
      mode: null,
      schedule: null,
      settle_seconds: null,
    });
  });
});
