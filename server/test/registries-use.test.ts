import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActionResult, ApiError, Registry } from '@berth/contract';
import { createTestApp, type TestApp } from './helpers/app';
import { tryDockerCli } from './helpers/engine';
import { projectName } from './helpers/compose-projects';
import { privateRegistries } from './helpers/registries';
import { runAutoUpdate } from './helpers/auto-update';
import { sampleProcesses, treeText } from './helpers/leaks';

describe('private images on every path', () => {
  const r = privateRegistries();
  let t: TestApp;
  const log: string[] = [];
  const app = `berth-t-regapp-${process.pid}`;
  const project = projectName('reg');

  beforeAll(async () => {
    t = await createTestApp({ LOG_LEVEL: 'debug' }, {}, { logStream: { write: (line) => void log.push(line) } });
    const made = await t.client.post<Registry>('/api/registries', {
      name: 'private',
      server_address: r.basic,
      username: r.user,
      password: r.password,
    });
    expect(made.status).toBe(200);
  });
  afterAll(async () => {
    await t?.client.post(`/api/compose/${project}/actions/delete`);
    tryDockerCli(['rm', '-f', app]);
    await t?.close();
  });

  it('deploys an app from a private image (pulled with the credential)', async () => {
    tryDockerCli(['rmi', '-f', r.image]);
    const res = await t.client.post<ApiError>('/api/apps/deploy', {
      name: app,
      image: r.image,
      restart_policy: 'none',
      command: ['sleep', '600'],
    });
    expect(res.status, res.text).toBe(200);
    expect(tryDockerCli(['inspect', '-f', '{{.State.Running}}', app]).stdout.trim()).toBe('true');
  });

  it('sees a newer private image by its registry digest; one-click update and the scheduled auto-update move the app to it', async () => {
    // A tag of this test's own, pushed as one image and then moved to another (with a throwaway login).
    const tag = `${r.basic}/private/busybox:upd-${process.pid}`;
    const cfg = fs.mkdtempSync(path.join(t.dataDir, 'login-'));
    const as = { env: { DOCKER_CONFIG: cfg }, input: r.password };
    expect(tryDockerCli(['login', '-u', r.user, '--password-stdin', r.basic], as).status).toBe(0);
    const push = (from: string) => {
      expect(tryDockerCli(['tag', from, tag]).status).toBe(0);
      expect(tryDockerCli(['push', '-q', tag], as).status).toBe(0);
    };
    push(r.image);
    const name = `${app}-upd`;
    const deployed = await t.client.post('/api/apps/deploy', {
      name,
      image: tag,
      restart_policy: 'none',
      command: ['sleep', '600'],
    });
    expect(deployed.status, deployed.text).toBe(200);
    const check = async () =>
      (await t.client.get<{ isUpdatable: boolean; reason: string | null }>(`/api/apps/${name}/updates`)).body;
    expect(await check()).toMatchObject({ isUpdatable: false, reason: null });
    // Another image under the same tag in the registry.
    const other = tryDockerCli(['commit', '--change', 'LABEL berth.upd=2', app]).stdout.trim();
    push(other);
    tryDockerCli(['rmi', tag]);
    expect(await check()).toMatchObject({ isUpdatable: true, reason: null });
    const updated = await t.client.post(`/api/apps/${name}/update`);
    expect(updated.status, updated.text).toBe(200);
    expect(tryDockerCli(['inspect', '-f', '{{.Image}}', name]).stdout.trim()).toBe(other);

    // The scheduled auto-update (run now) finds and applies the next one the same way.
    const third = tryDockerCli(['commit', '--change', 'LABEL berth.upd=3', app]).stdout.trim();
    push(third);
    tryDockerCli(['rmi', tag]);
    fs.rmSync(cfg, { recursive: true, force: true });
    const override = await t.client.request('PUT', `/api/apps/${name}/auto-update`, {
      enabled: true,
      mode: 'update',
      schedule: null,
      settle_seconds: 1,
    });
    expect(override.status, override.text).toBe(200);
    const run = await runAutoUpdate(t.client);
    expect(run.results.find((x) => x.name === name)).toMatchObject({ result: 'updated' });
    expect(tryDockerCli(['inspect', '-f', '{{.Image}}', name]).stdout.trim()).toBe(third);
    tryDockerCli(['rm', '-f', name]);
    tryDockerCli(['rmi', '-f', tag, other, third]);
  });

  it('compose up of a private image: private DOCKER_CONFIG for the run, gone after, never on a command line', async () => {
    tryDockerCli(['rmi', '-f', r.image]);
    const content = `services:\n  web:\n    image: ${r.image}\n    command: ["sleep", "600"]\n    stop_signal: SIGKILL\n`;
    expect((await t.client.post('/api/compose/', { name: project, content })).status).toBe(200);
    const { result: up, seen } = await sampleProcesses(() =>
      t.client.post<ActionResult>(`/api/compose/${project}/actions/up`),
    );
    expect(up.status, up.text).toBe(200);
    expect(up.body.output).toMatch(/Pulling|Creating|Started|Running|done/i);
    expect(seen.length).toBeGreaterThan(2);
    // The private config existed only during the run; argv and environments never held the password.
    expect(seen.join('\n')).not.toContain(r.password);
    expect(seen.some((s) => s.includes(`DOCKER_CONFIG=${path.join(t.dataDir, '.tmp', 'docker-config')}`))).toBe(true);
    expect(fs.readdirSync(path.join(t.dataDir, '.tmp', 'docker-config'))).toEqual([]);
    expect(treeText(path.join(t.dataDir, 'compose'))).not.toContain(r.password);
    expect(tryDockerCli(['image', 'inspect', r.image]).status).toBe(0);
  });

  it('compose pull fails without the credential for this environment', async () => {
    const id = (await t.client.get<Registry[]>('/api/registries')).body[0]!.id;
    await t.client.patch(`/api/registries/${id}`, { environments: [] });
    const pull = await t.client.post<ApiError>(`/api/compose/${project}/actions/pull`);
    expect(pull.status).toBe(400);
    expect(pull.body.detail).toMatch(/no basic auth credentials|unauthorized|authentication required/i);
    await t.client.patch(`/api/registries/${id}`, { environments: null });
    expect((await t.client.post(`/api/compose/${project}/actions/pull`)).status).toBe(200);
  });

  it('pulls on a remote environment with the credential sent with the engine call, only when allowed there', async () => {
    const env = process.env;
    const dir = env.BERTH_TEST_REMOTE_TLS_DIR!;
    const remote = (args: string[]) =>
      spawnSync(env.BERTH_TEST_DOCKER_CLI || 'docker', ['--host', env.BERTH_TEST_REMOTE_SOCKET!, ...args], {
        encoding: 'utf8',
        timeout: 60_000,
      });
    const read = (f: string) => fs.readFileSync(path.join(dir, f), 'utf8');
    const made = await t.client.post('/api/environments', {
      id: 'regremote',
      name: 'Registry remote',
      url: env.BERTH_TEST_REMOTE_HOST!,
      tls: { ca: read('ca.pem'), cert: read('cert.pem'), key: read('key.pem') },
    });
    expect(made.status, made.text).toBe(200);
    const id = (await t.client.get<Registry[]>('/api/registries')).body[0]!.id;
    await t.client.patch(`/api/registries/${id}`, { environments: ['local'] });
    remote(['rmi', '-f', r.image]);
    const refused = await t.client.post<ApiError>('/api/environments/regremote/resources/images/', { image: r.image });
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect(refused.body.detail).toMatch(/no basic auth credentials|unauthorized|authentication required/i);
    await t.client.patch(`/api/registries/${id}`, { environments: ['local', 'regremote'] });
    const pulled = await t.client.post('/api/environments/regremote/resources/images/', { image: r.image });
    expect(pulled.status, pulled.text).toBe(200);
    expect(remote(['image', 'inspect', r.image]).status).toBe(0);
    // Nothing was written on the remote host: its engine keeps no login.
    expect(remote(['info', '--format', '{{json .RegistryConfig.IndexConfigs}}']).stdout).not.toContain(r.password);
    await t.client.patch(`/api/registries/${id}`, { environments: null });
    await t.client.delete('/api/environments/regremote');
  });

  it('the password is in no response, log, audit entry or export', async () => {
    const exported = await t.client.get('/api/settings/export');
    expect(exported.status).toBe(200);
    expect(exported.text).not.toContain(r.password);
    expect((await t.client.get('/api/audit?limit=500')).text).not.toContain(r.password);
    expect(log.join('\n')).not.toContain(r.password);
    expect(treeText(t.dataDir).includes(r.password)).toBe(false);
  });
});
