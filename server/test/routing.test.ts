import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import zlib from 'node:zlib';
import { createTestApp, type TestApp } from './helpers/app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('routing', () => {
  it('answers a list call with or without its trailing slash', async () => {
    const withSlash = await t.client.get<unknown[]>('/api/templates/');
    const without = await t.client.get<unknown[]>('/api/templates');
    expect(withSlash.status).toBe(200);
    expect(without.status).toBe(200);
    expect(without.body).toEqual(withSlash.body);
  });

  it('answers an unknown API path with a JSON 404 naming it', async () => {
    const res = await t.client.get<{ detail: string; code: string }>('/api/no-such-thing');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ detail: 'No route GET /api/no-such-thing', code: 'not_found' });
  });

  it('answers an engine-less health check without signing in', async () => {
    const res = await t.anon().get<{ version: string; engine: { reachable: boolean } }>('/api/health');
    expect(res.status).toBe(200);
    expect(res.body.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(typeof res.body.engine.reachable).toBe('boolean');
  });

  it('serves every engine-backed route under /api/environments/{env} as well, `local` being the spec path', async () => {
    const name = `berth-t-scoped-${Date.now().toString(36)}`;
    const created = await t.client.post('/api/environments/local/resources/volumes/', { name });
    expect(created.status, created.text).toBe(200);
    try {
      const spec = await t.client.get<{ Name: string }>(`/api/resources/volumes/${name}`);
      expect([spec.status, spec.body.Name]).toEqual([200, name]);
    } finally {
      expect((await t.client.delete(`/api/environments/local/resources/volumes/${name}`)).status).toBe(200);
    }
    expect((await t.client.get(`/api/resources/volumes/${name}`)).status).toBe(404);
  });

  it('answers 404 for an unknown environment and 400 for a malformed id', async () => {
    const unknown = await t.client.get<{ code: string; detail: string }>('/api/environments/nowhere/apps/');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ code: 'not_found', detail: 'No such environment: nowhere' });
    const malformed = await t.client.get<{ code: string }>('/api/environments/Not_A_Slug/compose/');
    expect(malformed.status).toBe(400);
    expect(malformed.body.code).toBe('validation_error');
  });

  it('compresses JSON above 1 KB for a client that accepts it, and never inflates a request body', async () => {
    const cookie = [...t.client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const get = (encoding: string) =>
      t.app.inject({ method: 'GET', url: '/api/docs/json', headers: { cookie, 'accept-encoding': encoding } });
    const raw = await get('identity');
    expect(raw.rawPayload.length).toBeGreaterThan(1024);
    const br = await get('br, gzip');
    expect(br.headers['content-encoding']).toBe('br');
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(raw.body);
    expect(br.rawPayload.length).toBeLessThan(raw.rawPayload.length / 4);
    const gz = await get('gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gz.rawPayload).toString()).toBe(raw.body);
    // Below the threshold: sent as it is.
    const small = await t.app.inject({ method: 'GET', url: '/api/health', headers: { 'accept-encoding': 'br' } });
    expect(small.headers['content-encoding']).toBeUndefined();
    // A gzipped body is not inflated: the JSON parser sees bytes, not a login.
    const csrf = t.client.cookies.get('csrf_access_token') ?? '';
    const zipped = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip', 'x-csrf-token': csrf },
      payload: zlib.gzipSync(JSON.stringify({ username: 'a@b.c', password: 'x' })),
    });
    expect(zipped.statusCode).toBe(400);
  });
});
