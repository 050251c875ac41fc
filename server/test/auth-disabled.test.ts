import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiError } from '@berth/contract';
import { createTestApp, type TestApp } from './helpers/app';
import { dockerCli, removeContainersNamed, testEngine, tryDockerCli } from './helpers/engine';

// Issue 22.1: with DISABLE_AUTH=true, a page on another site (or a DNS-rebinding page) must not
// be able to change the engine. Every case checks the engine itself afterwards.

const tag = randomBytes(3).toString('hex');
const container = `berth-t-csrf-${tag}`;
const volume = `berth-t-csrf-vol-${tag}`;

const state = () => dockerCli(['inspect', '--format', '{{.State.Status}}', container]).trim();
const volumeExists = () => tryDockerCli(['volume', 'inspect', volume]).status === 0;

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ DISABLE_AUTH: 'true' });
  dockerCli([
    'run',
    '-d',
    '--name',
    container,
    '--label',
    'berth.test=1',
    '--stop-timeout',
    '1',
    testEngine().image,
    'sleep',
    '3600',
  ]);
});
afterAll(async () => {
  removeContainersNamed(container);
  tryDockerCli(['volume', 'rm', '-f', volume]);
  await t?.close();
});

describe('DISABLE_AUTH=true refuses cross-site state changes', () => {
  it('refuses a cross-site GET alias (<img src=…/stop>), by Sec-Fetch-Site and by the missing CSRF token; the container keeps running', async () => {
    const url = `/api/apps/actions/${container}/stop`;
    const img = await t
      .anon()
      .get<ApiError>(url, { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'no-cors', 'sec-fetch-dest': 'image' });
    expect(img.status).toBe(403);
    expect(img.body.code).toBe('csrf_failed');
    // An older browser that sends no Sec-Fetch-* headers: no token, no action.
    const old = await t.anon().get<ApiError>(url);
    expect(old.status).toBe(403);
    expect(old.body).toMatchObject({ code: 'csrf_failed', detail: expect.stringMatching(/GET \/api\/auth\/csrf/) });
    expect(state()).toBe('running');
  });

  it('refuses a text/plain form POST from another origin, and one with no Origin and no token; the container keeps running', async () => {
    const url = `/api/apps/actions/${container}/remove`;
    const form = await t
      .anon()
      .request<ApiError>('POST', url, 'x=1', { 'content-type': 'text/plain', origin: 'http://evil.example' });
    expect(form.status).toBe(403);
    expect(form.body.code).toBe('csrf_failed');
    const bare = await t.anon().request<ApiError>('POST', url, 'x=1', { 'content-type': 'text/plain' });
    expect(bare.status).toBe(403);
    expect(state()).toBe('running');
  });

  it('refuses a DNS-rebinding request with a foreign Host (421), even with a valid token; no volume is made', async () => {
    const anon = t.anon();
    const csrf = (await anon.get<{ csrf: string }>('/api/auth/csrf')).body.csrf;
    const res = await anon.post<ApiError>(
      '/api/resources/volumes/',
      { name: volume },
      { host: 'rebind.attacker.example', 'x-csrf-token': csrf },
    );
    expect(res.status).toBe(421);
    expect(res.body).toMatchObject({ code: 'host_not_allowed', detail: expect.stringMatching(/ALLOWED_HOSTS/) });
    // Reading through the rebound name is refused too, and so is the token source.
    expect((await anon.get('/api/auth/csrf', { host: 'rebind.attacker.example:8000' })).status).toBe(421);
    expect(volumeExists()).toBe(false);
  });

  it('accepts a same-origin change that carries the token from GET /api/auth/csrf', async () => {
    const anon = t.anon();
    const csrf = (await anon.get<{ csrf: string | null }>('/api/auth/csrf')).body.csrf;
    expect(csrf).toMatch(/^[\w-]+\.[\w-]+$/);
    const wrong = await anon.post<ApiError>(
      '/api/resources/volumes/',
      { name: volume },
      { 'x-csrf-token': `${csrf!.split('.')[0]}.forged` },
    );
    expect(wrong.status).toBe(403);
    expect(volumeExists()).toBe(false);
    const res = await anon.post(
      '/api/resources/volumes/',
      { name: volume },
      { 'x-csrf-token': csrf!, origin: 'http://localhost', 'sec-fetch-site': 'same-origin' },
    );
    expect(res.status, res.text).toBe(200);
    expect(volumeExists()).toBe(true);
  });
});

describe('with auth on', () => {
  let on: TestApp;
  beforeAll(async () => {
    on = await createTestApp({ ALLOWED_HOSTS: 'berth.example.org' });
  });
  afterAll(async () => {
    await on?.close();
  });

  it('refuses a signed-in state change the browser marks as cross-site, even with the right CSRF header', async () => {
    for (const headers of [
      { origin: 'https://evil.example' },
      { 'sec-fetch-site': 'same-site' },
      { origin: 'null' },
    ] as Record<string, string>[]) {
      const res = await on.client.post<ApiError>(`/api/apps/actions/${container}/stop`, {}, headers);
      expect(res.status, JSON.stringify(headers)).toBe(403);
      expect(res.body.code).toBe('csrf_failed');
    }
    expect(state()).toBe('running');
  });

  it('answers only to the host names of ALLOWED_HOSTS, and always to loopback (health checks)', async () => {
    expect((await on.anon().get('/api/health', { host: 'berth.example.org:8443' })).status).toBe(200);
    expect((await on.anon().get('/api/health', { host: 'localhost' })).status).toBe(200);
    expect((await on.anon().get('/api/health', { host: '127.0.0.1:8000' })).status).toBe(200);
    const other = await on.anon().get<ApiError>('/api/health', { host: 'berth.example.net' });
    expect(other.status).toBe(421);
    expect(other.body.code).toBe('host_not_allowed');
    expect((await on.anon().get('/api/auth/csrf')).body).toEqual({ csrf: null });
  });
});
