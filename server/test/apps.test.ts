import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { App, ApiError, Processes } from '@berth/contract';
import { createTestApp, type TestApp } from './helpers/app';
import { dockerCli } from './helpers/engine';
import { cleanup, exists, uniqueName } from './images-fixtures';
import { inspect, runTicker } from './apps-fixtures';

let t: TestApp;
const made: string[] = [];

function ticker(feature: string, extra: string[] = []): string {
  const name = uniqueName(feature);
  made.push(name);
  runTicker(name, extra);
  return name;
}

const state = (name: string) => dockerCli(['inspect', '--format', '{{.State.Status}}', name]).trim();

beforeAll(async () => {
  t = await createTestApp();
});

afterAll(async () => {
  cleanup('container', ...made);
  await t?.close();
});

describe('GET /api/apps/', () => {
  it('lists every container with name, ports, short_id and the inspect-like fields, sorted by name', async () => {
    const port = 40000 + Math.floor(Math.random() * 20000);
    const running = ticker('apps-list', ['-p', `127.0.0.1:${port}:80`, '--label', 'local.berth.port.80=Web']);
    const stopped = uniqueName('apps-list');
    made.push(stopped);
    dockerCli([
      'create',
      '--name',
      stopped,
      '--label',
      'berth.test=1',
      dockerCli(['inspect', '--format', '{{.Config.Image}}', running]).trim(),
      'true',
    ]);

    const res = await t.client.get<App[]>('/api/apps/');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const names = res.body.map((a) => a.name);
    expect(names).toEqual([...names].sort());
    const app = res.body.find((a) => a.name === running)!;
    const id = dockerCli(['inspect', '--format', '{{.Id}}', running]).trim();
    expect(app).toMatchObject({
      Id: id,
      Name: `/${running}`,
      short_id: id.slice(0, 10),
      State: { Status: 'running' },
      Config: { Labels: { 'berth.test': '1', 'local.berth.port.80': 'Web' } },
      ports: { '80/tcp': [{ HostIp: '127.0.0.1', HostPort: String(port) }] },
      isUpdatable: false,
    });
    expect(app.Config.Image).toContain('berth-test/busybox');
    expect(new Date(app.Created).getTime()).toBeGreaterThan(Date.now() - 10 * 60_000);
    const off = res.body.find((a) => a.name === stopped)!;
    expect(off).toMatchObject({ State: { Status: 'created' }, ports: {} });
  });

  it('uses at most one engine list call and no per-container inspect', async () => {
    ticker('apps-one-call');
    // The new container's events make the list cache wait for the engine to save it (one inspect of
    // that container); the read after that one is the plain case.
    await t.client.get<App[]>('/api/apps/');
    const list = vi.spyOn(t.ctx.docker, 'listContainers');
    const get = vi.spyOn(t.ctx.docker, 'inspectContainer');
    try {
      const res = await t.client.get<App[]>('/api/apps/');
      expect(res.status).toBe(200);
      expect(res.body.length).toBeGreaterThan(1);
      expect(list.mock.calls.length).toBeLessThanOrEqual(1);
      expect(get).not.toHaveBeenCalled();
    } finally {
      list.mockRestore();
      get.mockRestore();
    }
  });
});

describe('GET /api/apps/{name}', () => {
  it('returns the inspect shape plus name, ports and short_id', async () => {
    const name = ticker('apps-get', ['-e', 'MODE=test']);
    const res = await t.client.get<App>(`/api/apps/${name}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name,
      Name: `/${name}`,
      State: { Status: 'running', Running: true },
      isUpdatable: false,
      ports: {},
    });
    expect(res.body.short_id).toHaveLength(10);
    expect(res.body.Config.Env).toContain('MODE=test');
    expect(res.body.HostConfig).toBeDefined();
  });

  it('returns 404 with detail for an unknown app', async () => {
    const res = await t.client.get<ApiError>('/api/apps/berth-t-apps-nonexistent-0000');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: 'not_found', detail: 'No such container: berth-t-apps-nonexistent-0000' });
  });

  it('refuses a name that is not a container name with 400, before the engine sees it', async () => {
    const res = await t.client.get<ApiError>('/api/apps/..%2F..%2Fimages%2Fjson');
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_error');
  });
});

describe('GET /api/apps/{name}/processes', () => {
  it('lists the processes of a running app', async () => {
    const name = ticker('apps-top');
    const res = await t.client.get<Processes>(`/api/apps/${name}/processes`);
    expect(res.status).toBe(200);
    expect(res.body.Titles).toContain('PID');
    expect(res.body.Processes.some((p) => p.join(' ').includes('sh -c'))).toBe(true);
  });

  it('answers 409 with a clear detail for a stopped app and 404 for an unknown one', async () => {
    const name = ticker('apps-top-stopped');
    dockerCli(['stop', '-t', '1', name]);
    const res = await t.client.get<ApiError>(`/api/apps/${name}/processes`);
    expect(res.status).toBe(409);
    expect(res.body.detail).toBe(`${name} is not running; start it to see its processes.`);
    const unknown = await t.client.get<ApiError>('/api/apps/berth-t-apps-nonexistent-0000/processes');
    expect(unknown.status).toBe(404);
  });
});

describe('app actions', () => {
  it('stop, start, restart, pause, unpause, kill and remove change the engine state and return the list', async () => {
    const name = ticker('apps-actions');
    const steps: [string, string | null][] = [
      ['stop', 'exited'],
      ['start', 'running'],
      ['pause', 'paused'],
      ['unpause', 'running'],
      ['kill', 'exited'],
      ['restart', 'running'],
      ['remove', null],
    ];
    for (const [action, expected] of steps) {
      const startedBefore = exists('container', name)
        ? inspect<{ State: { StartedAt: string } }>(name).State.StartedAt
        : '';
      const res = await t.client.post<App[]>(`/api/apps/actions/${name}/${action}`);
      expect(res.status, `${action}: ${res.text}`).toBe(200);
      expect(Array.isArray(res.body)).toBe(true);
      if (expected === null) {
        expect(exists('container', name)).toBe(false);
        expect(res.body.some((a) => a.name === name)).toBe(false);
      } else {
        expect(state(name), action).toBe(expected);
        expect(res.body.find((a) => a.name === name)?.State.Status).toBe(expected);
        if (action === 'restart')
          expect(inspect<{ State: { StartedAt: string } }>(name).State.StartedAt).not.toBe(startedBefore);
      }
    }
  });

  it('accepts GET too (with the CSRF header), as the spec documents it', async () => {
    const name = ticker('apps-get-action');
    const res = await t.client.get<App[]>(`/api/apps/actions/${name}/stop`);
    expect(res.status).toBe(200);
    expect(state(name)).toBe('exited');
  });

  it('treats starting a running app as done', async () => {
    const name = ticker('apps-start-twice');
    const res = await t.client.post(`/api/apps/actions/${name}/start`);
    expect(res.status).toBe(200);
    expect(state(name)).toBe('running');
  });

  it('answers 400 naming the allowed actions for an unknown action, and changes nothing', async () => {
    const name = ticker('apps-bad-action');
    const res = await t.client.post<ApiError>(`/api/apps/actions/${name}/explode`);
    expect(res.status).toBe(400);
    expect(res.body.detail).toContain('start, stop, restart, kill, remove, pause, unpause');
    expect(state(name)).toBe('running');
  });

  it('answers 404 for an action on an unknown app', async () => {
    const res = await t.client.post<ApiError>('/api/apps/actions/berth-t-apps-nonexistent-0000/start');
    expect(res.status).toBe(404);
    expect(res.body.detail).toContain('berth-t-apps-nonexistent-0000');
  });

  it('answers 409 with the engine reason for an action the state does not allow', async () => {
    const name = ticker('apps-conflict');
    dockerCli(['stop', '-t', '1', name]);
    const res = await t.client.post<ApiError>(`/api/apps/actions/${name}/kill`);
    expect(res.status).toBe(409);
    expect(res.body.detail).toMatch(/not running/i);
  });
});

describe('GET /api/apps/{name}/support', () => {
  it('downloads a zip with the log and the configuration, every environment value redacted', async () => {
    const name = ticker('apps-support', ['-e', 'SECRET_VALUE=hunter2', '-e', 'OTHER=also-secret']);
    await new Promise((r) => setTimeout(r, 800));
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/apps/${name}/support`,
      headers: { cookie: [...t.client.cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="${name}_bundle.zip"`);
    const raw = res.rawPayload;
    expect(raw.includes(Buffer.from('hunter2'))).toBe(false);

    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'berth-t-zip-'));
    try {
      fs.writeFileSync(path.join(dir, 'b.zip'), raw);
      const unzip = spawnSync('unzip', ['-o', '-q', 'b.zip'], { cwd: dir, encoding: 'utf8' });
      expect(unzip.status, unzip.stderr).toBe(0);
      expect(fs.readdirSync(dir).sort()).toEqual(['b.zip', `${name}-config.yml`, `${name}.log`].sort());
      const log = fs.readFileSync(path.join(dir, `${name}.log`), 'utf8');
      expect(log).toMatch(/run 1 line 1\n/);
      const yml = fs.readFileSync(path.join(dir, `${name}-config.yml`), 'utf8');
      expect(yml).toContain('SECRET_VALUE=<redacted>');
      expect(yml).toContain('OTHER=<redacted>');
      expect(yml).toContain(`Name: /${name}`);
      for (const file of fs.readdirSync(dir))
        expect(fs.readFileSync(path.join(dir, file)).includes('hunter2'), file).toBe(false);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('answers 404 for an unknown app', async () => {
    const res = await t.client.get<ApiError>('/api/apps/berth-t-apps-nonexistent-0000/support');
    expect(res.status).toBe(404);
  });
});

describe('without an engine', () => {
  it('answers 503 docker_unavailable with a detail', async () => {
    const off = await createTestApp({ DOCKER_HOST: `unix://${path.join(os.tmpdir(), 'berth-t-no-engine.sock')}` });
    try {
      const res = await off.client.get<ApiError>('/api/apps/');
      expect(res.status).toBe(503);
      expect(res.body.code).toBe('docker_unavailable');
      expect(res.body.detail).toMatch(/not reachable/);
    } finally {
      await off.close();
    }
  });
});
