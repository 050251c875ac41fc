import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
});
