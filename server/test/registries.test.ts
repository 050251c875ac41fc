import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiError, Registry, RegistryRepositories, RegistryTags, RegistryTestResult } from '@berth/contract';
import { createTestApp, type TestApp } from './helpers/app';
import { tryDockerCli } from './helpers/engine';
import { privateRegistries } from './helpers/registries';

const BASE = '/api/registries';
describe('registries', () => {
  const r = privateRegistries();
  let t: TestApp;
  const log: string[] = [];
  let notRegistry: http.Server;
  let notRegistryPort = 0;

  beforeAll(async () => {
    t = await createTestApp({ LOG_LEVEL: 'debug' }, {}, { logStream: { write: (line) => void log.push(line) } });
    notRegistry = http.createServer((_req, res) =>
      res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>no</h1>'),
    );
    await new Promise<void>((resolve) => notRegistry.listen(0, '127.0.0.1', resolve));
    notRegistryPort = (notRegistry.address() as AddressInfo).port;
  });
  afterAll(async () => {
    notRegistry?.close();
    await t?.close();
  });

  const create = (body: Record<string, unknown>) => t.client.post<Registry>(BASE, body);

  it('stores a registry with its password sealed and never shows the password', async () => {
    const res = await create({
      name: 'Private basic',
      server_address: `http://${r.basic}/`,
      username: r.user,
      password: r.password,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: 'Private basic',
      server_address: r.basic,
      username: r.user,
      has_password: true,
      ca_cert: null,
      environments: null,
    });
    expect(res.text).not.toContain(r.password);
    const stored = t.ctx.db.prepare('SELECT password_sealed FROM registries WHERE id = ?').pluck().get(res.body.id);
    expect(String(stored)).toMatch(/^v1\./);
    expect(String(stored)).not.toContain(r.password);
    const dbFile = fs.readFileSync(`${t.dataDir}/berth.db`).toString('latin1');
    expect(dbFile).not.toContain(r.password);

    const list = await t.client.get<Registry[]>(BASE);
    expect(list.body.map((x) => x.name)).toContain('Private basic');
    expect(list.text).not.toContain(r.password);

    const dup = await create({ name: 'private BASIC', server_address: r.basic });
    expect(dup.status).toBe(409);
    const bad = await create({ name: 'x', server_address: 'not a host!' });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: 'validation_error' });
    const env = await create({ name: 'y', server_address: r.basic, environments: ['nowhere'] });
    expect(env.status).toBe(400);
    expect((env.body as unknown as ApiError).detail).toMatch(/Unknown environment: nowhere/);
  });

  it('tests /v2/ and says what failed: unauthorized, TLS, unreachable, not a registry', async () => {
    const basic = (await t.client.get<Registry[]>(BASE)).body.find((x) => x.name === 'Private basic')!;
    const ok = await t.client.post<RegistryTestResult>(`${BASE}/${basic.id}/test`);
    expect(ok.body).toMatchObject({ ok: true, failure: null, url: `http://${r.basic}/v2/` });

    const wrong = await t.client.post<RegistryTestResult>(`${BASE}/test`, {
      server_address: r.basic,
      username: r.user,
      password: 'wrong-password',
    });
    expect(wrong.body).toMatchObject({ ok: false, failure: 'unauthorized' });
    expect(wrong.body.detail).toMatch(/unauthorized/);
    const none = await t.client.post<RegistryTestResult>(`${BASE}/test`, { server_address: r.basic });
    expect(none.body).toMatchObject({ ok: false, failure: 'unauthorized' });

    const tls = { server_address: r.tls, username: r.user, password: r.password };
    const noCa = await t.client.post<RegistryTestResult>(`${BASE}/test`, tls);
    expect(noCa.body).toMatchObject({ ok: false, failure: 'tls' });
    expect(noCa.body.detail).toMatch(/unknown authority/);
    const withCa = await t.client.post<RegistryTestResult>(`${BASE}/test`, { ...tls, ca_cert: r.ca });
    expect(withCa.body).toMatchObject({ ok: true, url: `https://${r.tls}/v2/` });

    const closed = await t.client.post<RegistryTestResult>(`${BASE}/test`, { server_address: '127.0.0.1:9' });
    expect(closed.body).toMatchObject({ ok: false, failure: 'unreachable' });
    const html = await t.client.post<RegistryTestResult>(`${BASE}/test`, {
      server_address: `127.0.0.1:${notRegistryPort}`,
    });
    expect(html.body).toMatchObject({ ok: false, failure: 'not_registry' });
    const metadata = await t.client.post<RegistryTestResult>(`${BASE}/test`, { server_address: '169.254.169.254' });
    expect(metadata.body).toMatchObject({ ok: false, failure: 'unreachable' });
    expect(metadata.body.detail).toMatch(/link-local/);
  });

  it('answers a Bearer challenge (Docker Hub, GHCR) with a token fetched from the realm with the credential', async () => {
    // A registry front that speaks the token protocol: /v2/ wants a Bearer token, /token hands one out for Basic auth.
    const token = 'tok-' + Math.random().toString(36).slice(2);
    const bearer = http.createServer((req, res) => {
      const port = (bearer.address() as AddressInfo).port;
      if (req.url?.startsWith('/token')) {
        const ok = req.headers.authorization === `Basic ${Buffer.from(`${r.user}:${r.password}`).toString('base64')}`;
        const scope = new URL(req.url, 'http://x').searchParams.get('service');
        if (!ok || scope !== 'test-registry') return void res.writeHead(401).end();
        return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ token }));
      }
      if (req.headers.authorization === `Bearer ${token}`)
        return void res.writeHead(200, { 'docker-distribution-api-version': 'registry/2.0' }).end('{}');
      res
        .writeHead(401, {
          'docker-distribution-api-version': 'registry/2.0',
          'www-authenticate': `Bearer realm="http://127.0.0.1:${port}/token",service="test-registry"`,
        })
        .end();
    });
    await new Promise<void>((resolve) => bearer.listen(0, '127.0.0.1', resolve));
    try {
      const address = `127.0.0.1:${(bearer.address() as AddressInfo).port}`;
      const ok = await t.client.post<RegistryTestResult>(`${BASE}/test`, {
        server_address: address,
        username: r.user,
        password: r.password,
      });
      expect(ok.body).toMatchObject({ ok: true, failure: null });
      const wrong = await t.client.post<RegistryTestResult>(`${BASE}/test`, {
        server_address: address,
        username: r.user,
        password: 'nope',
      });
      expect(wrong.body).toMatchObject({ ok: false, failure: 'unauthorized' });
    } finally {
      bearer.close();
    }
  });

  it('browses the catalog and tags, a page at a time', async () => {
    const made = await create({
      name: 'Private TLS',
      server_address: r.tls,
      username: r.user,
      password: r.password,
      ca_cert: r.ca,
    });
    expect(made.status).toBe(200);
    const repos = await t.client.get<RegistryRepositories>(`${BASE}/${made.body.id}/repositories?n=1`);
    expect(repos.status).toBe(200);
    expect(repos.body).toMatchObject({
      catalog_allowed: true,
      repositories: ['private/busybox'],
      next: 'private/busybox',
    });
    const page2 = await t.client.get<RegistryRepositories>(
      `${BASE}/${made.body.id}/repositories?n=1&last=${encodeURIComponent(repos.body.next!)}`,
    );
    expect(page2.body.repositories).toEqual(['private/tools']);
    const tags = await t.client.get<RegistryTags>(
      `${BASE}/${made.body.id}/repositories/${encodeURIComponent('private/busybox')}/tags`,
    );
    expect(tags.body).toMatchObject({ repository: 'private/busybox', image: `${r.tls}/private/busybox` });
    expect(tags.body.tags).toContain('latest');
    const missing = await t.client.get<ApiError>(`${BASE}/${made.body.id}/repositories/nothing/here/tags`);
    expect(missing.status).toBe(404);

    // A wrong password: the catalog is "not allowed" (what the registry says), never a 500.
    const patched = await t.client.patch<Registry>(`${BASE}/${made.body.id}`, { password: 'nope' });
    expect(patched.body.has_password).toBe(true);
    const denied = await t.client.get<RegistryRepositories>(`${BASE}/${made.body.id}/repositories`);
    expect(denied.body).toMatchObject({ catalog_allowed: false, repositories: [] });
    expect(denied.body.detail).toMatch(/does not allow listing/);
    await t.client.patch(`${BASE}/${made.body.id}`, { password: r.password });
  });

  it('pulls a private image only with the credential', async () => {
    tryDockerCli(['rmi', '-f', r.image]);
    const id = (await t.client.get<Registry[]>(BASE)).body.find((x) => x.name === 'Private basic')!.id;
    // Not for this environment: anonymous, refused by the registry.
    await t.client.patch(`${BASE}/${id}`, { environments: [] });
    const refused = await t.client.post<ApiError>('/api/resources/images/', { image: r.image });
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect(refused.body.detail).toMatch(/no basic auth credentials|unauthorized|authentication required/i);

    await t.client.patch(`${BASE}/${id}`, { environments: ['local'] });
    const pulled = await t.client.post('/api/resources/images/', { image: r.image });
    expect(pulled.status).toBe(200);
    expect(tryDockerCli(['image', 'inspect', r.image]).status).toBe(0);
    expect(pulled.text).not.toContain(r.password);
  });

  it('removes a registry', async () => {
    const made = await create({ name: 'gone', server_address: 'ghcr.io', username: 'u', password: 'p-gone-123' });
    const del = await t.client.delete<Registry>(`${BASE}/${made.body.id}`);
    expect(del.body.name).toBe('gone');
    expect((await t.client.get(`${BASE}/${made.body.id}`)).status).toBe(404);
  });

  it('never wrote the password to the log or the audit log', async () => {
    expect(log.join('\n')).not.toContain(r.password);
    const audit = await t.client.get('/api/audit?limit=500');
    expect(audit.status).toBe(200);
    expect(audit.text).toContain('registries');
    expect(audit.text).not.toContain(r.password);
  });
});
