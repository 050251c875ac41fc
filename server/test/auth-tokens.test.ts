import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SignJWT, decodeJwt } from 'jose';
import type { ApiError, NewApiKey } from '@berth/contract';
import { createTestApp, REAUTH, type TestApp, type TestClient } from './helpers/app';

let t: TestApp;
let key: Uint8Array;
beforeAll(async () => {
  t = await createTestApp();
  key = Buffer.from(fs.readFileSync(path.join(t.dataDir, 'keys', 'secret.key'), 'utf8').trim(), 'hex');
});
afterAll(async () => {
  await t?.close();
});

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

/** Re-signs a real token's claims with changes, with the app's own key unless told otherwise. */
function forge(token: string, changes: Record<string, unknown> = {}, alg = 'HS256', withKey = key): Promise<string> {
  return new SignJWT({ ...decodeJwt(token), ...changes }).setProtectedHeader({ alg, typ: 'JWT' }).sign(withKey);
}

async function signedIn(): Promise<TestClient> {
  const c = t.anon();
  await c.login();
  return c;
}

/** GET /api/auth/me with the token as the access cookie and, separately, as a Bearer header. */
async function meWith(token: string): Promise<[number, number, ApiError]> {
  const byCookie = await t.app.inject({ method: 'GET', url: '/api/auth/me', cookies: { access_token_cookie: token } });
  const byHeader = await t.app.inject({
    method: 'GET',
    url: '/api/auth/me',
    headers: { authorization: `Bearer ${token}` },
  });
  return [byCookie.statusCode, byHeader.statusCode, byCookie.json()];
}

describe('access token checks', () => {
  it('accepts the genuine token, as cookie and as Bearer (the baseline for the tests below)', async () => {
    const access = (await signedIn()).cookies.get('access_token_cookie')!;
    expect((await meWith(access)).slice(0, 2)).toEqual([200, 200]);
    // A re-signed copy with no changes also passes, so the refusals below are caused by the change.
    expect((await meWith(await forge(access))).slice(0, 2)).toEqual([200, 200]);
  });

  it('refuses a token whose payload was changed with the signature kept', async () => {
    const access = (await signedIn()).cookies.get('access_token_cookie')!;
    const [header, , signature] = access.split('.');
    const tampered = `${header}.${b64({ ...decodeJwt(access), exp: Math.floor(Date.now() / 1000) + 365 * 86400 })}.${signature}`;
    const [cookie, bearer, body] = await meWith(tampered);
    expect([cookie, bearer]).toEqual([401, 401]);
    expect(body.detail).toBe('The access token is invalid.');
  });

  it('refuses alg none, and HS384/HS512 signed with the real key', async () => {
    const access = (await signedIn()).cookies.get('access_token_cookie')!;
    const none = `${b64({ alg: 'none', typ: 'JWT' })}.${b64(decodeJwt(access))}.`;
    expect((await meWith(none)).slice(0, 2)).toEqual([401, 401]);
    for (const alg of ['HS384', 'HS512'])
      expect((await meWith(await forge(access, {}, alg))).slice(0, 2), alg).toEqual([401, 401]);
  });

  it('refuses a token signed with another key', async () => {
    const access = (await signedIn()).cookies.get('access_token_cookie')!;
    expect((await meWith(await forge(access, {}, 'HS256', new Uint8Array(32).fill(7)))).slice(0, 2)).toEqual([
      401, 401,
    ]);
  });

  it('refuses a refresh token used as an access token', async () => {
    const refresh = (await signedIn()).cookies.get('refresh_token_cookie')!;
    const [cookie, bearer, body] = await meWith(refresh);
    expect([cookie, bearer]).toEqual([401, 401]);
    expect(body.detail).toBe('A refresh token was sent where an access token is needed.');
  });

  it('refuses an access token used as the refresh token', async () => {
    const c = await signedIn();
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/refresh',
      cookies: { refresh_token_cookie: c.cookies.get('access_token_cookie')! },
      headers: { 'x-csrf-token': c.cookies.get('csrf_access_token')! },
    });
    expect(res.statusCode).toBe(401);
  });

  it('refuses an expired access token; the refresh token still gets new tokens', async () => {
    const c = await signedIn();
    const now = Math.floor(Date.now() / 1000);
    c.cookies.set(
      'access_token_cookie',
      await forge(c.cookies.get('access_token_cookie')!, { iat: now - 901, exp: now - 1 }),
    );
    const me = await c.get<ApiError>('/api/auth/me');
    expect(me.status).toBe(401);
    expect(me.body.detail).toBe('The access token has expired.');
    expect((await c.post('/api/auth/refresh')).status).toBe(200);
    expect((await c.get('/api/auth/me')).status).toBe(200);
  });

  it('signs out with logout/refresh when the access token has already expired', async () => {
    const c = await signedIn();
    const now = Math.floor(Date.now() / 1000);
    c.cookies.set(
      'access_token_cookie',
      await forge(c.cookies.get('access_token_cookie')!, { iat: now - 901, exp: now - 1 }),
    );
    const refresh = c.cookies.get('refresh_token_cookie')!;
    const csrf = c.cookies.get('csrf_refresh_token')!;
    expect((await c.get('/api/auth/logout')).status).toBe(401);
    const res = await c.get('/api/auth/logout/refresh');
    expect(res.status).toBe(200);
    expect(c.cookies.size).toBe(0);
    const replay = await t.app.inject({
      method: 'POST',
      url: '/api/auth/refresh',
      cookies: { refresh_token_cookie: refresh },
      headers: { 'x-csrf-token': csrf },
    });
    expect(replay.statusCode).toBe(401);
  });

  it('refuses a malformed Authorization header instead of falling back to cookies', async () => {
    const c = await signedIn();
    const res = await c.get<ApiError>('/api/auth/me', {
      authorization: `Token ${c.cookies.get('access_token_cookie')}`,
    });
    expect(res.status).toBe(401);
    expect(res.body.detail).toMatch(/Malformed Authorization header/);
  });
});

describe('tokens in the query string', () => {
  it('ignores access tokens and API keys passed as query parameters', async () => {
    const c = await signedIn();
    const access = c.cookies.get('access_token_cookie')!;
    const apiKey = (await c.post<NewApiKey>('/api/auth/api/keys/new', { key_name: 'query', ...REAUTH })).body.token;
    expect((await t.anon().get('/api/auth/me', { authorization: `Bearer ${apiKey}` })).status).toBe(200);
    for (const q of [
      `access_token=${access}`,
      `token=${access}`,
      `jwt=${access}`,
      `api_key=${apiKey}`,
      `access_token_cookie=${access}`,
    ]) {
      const res = await t.anon().get(`/api/auth/me?${q}`);
      expect(res.status, q.split('=')[0]).toBe(401);
    }
  });
});
