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
    const spec = await t.client.get<unknown[]>('/api/resources/volumes/');
    const scoped = await t.client.get<unknown[]>('/api/environments/local/resources/volumes/');
    expect(scoped.status).toBe(200);
    expect(scoped.body).toEqual(spec.body);
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
