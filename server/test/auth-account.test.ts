import crypto from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ApiError, ApiKey, NewApiKey } from '@berth/contract';
import { UsersRepo } from '../src/db/users-repo';
import { PasswordHasher } from '../src/services/auth/passwords';
import { createTestApp, REAUTH, TEST_ADMIN, type TestApp, type TestClient } from './helpers/app';

const OTHER = { username: 'other@berth.test', password: 'other-user-password' };

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
});
afterEach(async () => {
  await t?.close();
});

async function signIn(username = TEST_ADMIN.username, password = TEST_ADMIN.password): Promise<TestClient> {
  const c = t.anon();
  await c.login(username, password);
  return c;
}

const loginStatus = async (username: string, password: string) =>
  (await t.anon().post('/api/auth/login', { username, password })).status;

/** A second account, straight into the table (the users API is tested in roles.test.ts). */
async function addOtherUser(): Promise<void> {
  new UsersRepo(t.ctx.db).insert(OTHER.username, await new PasswordHasher().hash(OTHER.password), 'viewer');
}

describe('POST /api/auth/me', () => {
  it('changes the email alone; the session keeps working and the old email no longer signs in', async () => {
    const res = await t.client.post('/api/auth/me', { username: 'New.Admin@berth.test', password: '', ...REAUTH });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ username: 'new.admin@berth.test', authDisabled: false });
    expect((await t.client.get('/api/auth/me')).body).toEqual({
      username: 'new.admin@berth.test',
      authDisabled: false,
    });
    expect(await loginStatus('new.admin@berth.test', TEST_ADMIN.password)).toBe(200);
    expect(await loginStatus(TEST_ADMIN.username, TEST_ADMIN.password)).toBe(401);
  });

  // Changed on purpose (issue 22.5): a password change now revokes the user's API keys unless keep_api_keys is true.
  it('changes the password: other sessions end, the caller stays signed in, API keys are revoked', async () => {
    const other = await signIn();
    const key = (await t.client.post<NewApiKey>('/api/auth/api/keys/new', { key_name: 'survives', ...REAUTH })).body;
    const callerOld = new Map(t.client.cookies);

    const res = await t.client.post('/api/auth/me', {
      username: TEST_ADMIN.username,
      password: 'a-brand-new-password',
      ...REAUTH,
    });
    expect(res.status).toBe(200);
    expect(t.client.cookies.get('access_token_cookie')).not.toBe(callerOld.get('access_token_cookie'));
    expect((await t.client.get('/api/auth/me')).status).toBe(200);
    expect((await t.client.post('/api/auth/refresh')).status).toBe(200);

    expect((await other.get('/api/auth/me')).status).toBe(401);
    expect((await other.post('/api/auth/refresh')).status).toBe(401);
    const replay = t.anon();
    for (const [k, v] of callerOld) replay.cookies.set(k, v);
    expect((await replay.get('/api/auth/me')).status).toBe(401);
    expect((await replay.post('/api/auth/refresh')).status).toBe(401);

    expect(await loginStatus(TEST_ADMIN.username, TEST_ADMIN.password)).toBe(401);
    expect(await loginStatus(TEST_ADMIN.username, 'a-brand-new-password')).toBe(200);
    expect((await t.anon().get('/api/auth/me', { authorization: `Bearer ${key.token}` })).status).toBe(401);
    expect((await t.client.get<ApiKey[]>('/api/auth/api/keys')).body).toEqual([]);
  });

  it('keeps the API keys on a password change when keep_api_keys is true', async () => {
    const key = (await t.client.post<NewApiKey>('/api/auth/api/keys/new', { key_name: 'kept', ...REAUTH })).body;
    const res = await t.client.post('/api/auth/me', {
      username: TEST_ADMIN.username,
      password: 'another-new-password',
      keep_api_keys: true,
      ...REAUTH,
    });
    expect(res.status, res.text).toBe(200);
    expect((await t.anon().get('/api/auth/me', { authorization: `Bearer ${key.token}` })).status).toBe(200);
  });

  it.each([
    ['eight spaces', '        ', /only spaces/],
    ['eight NUL characters', '\0'.repeat(8), /control characters/],
    ['a tab inside', 'pass\tword-long', /control characters/],
  ])('refuses a new password of %s with a 400 and keeps the old one', async (_what, password, detail) => {
    const res = await t.client.post<ApiError>('/api/auth/me', { username: TEST_ADMIN.username, password, ...REAUTH });
    expect(res.status).toBe(400);
    expect(res.body.fields?.map((f) => f.field)).toEqual(['password']);
    expect(res.body.detail).toMatch(detail);
    expect(await loginStatus(TEST_ADMIN.username, TEST_ADMIN.password)).toBe(200);
  });
  it('refuses a password shorter than 8 characters with a 400 naming the field, and keeps the old one', async () => {
    const res = await t.client.post<ApiError>('/api/auth/me', {
      username: TEST_ADMIN.username,
      password: 'short',
      ...REAUTH,
    });
    expect(res.status).toBe(400);
    expect(res.body.fields?.map((f) => f.field)).toEqual(['password']);
    expect(res.body.detail).toMatch(/at least 8 characters/);
    expect(await loginStatus(TEST_ADMIN.username, TEST_ADMIN.password)).toBe(200);
  });

  it('refuses an email that is not an email, and unknown fields, naming them', async () => {
    const bad = await t.client.post<ApiError>('/api/auth/me', { username: 'not-an-email', password: '', ...REAUTH });
    expect(bad.status).toBe(400);
    expect(bad.body.fields?.map((f) => f.field)).toEqual(['username']);
    const extra = await t.client.post<ApiError>('/api/auth/me', {
      username: TEST_ADMIN.username,
      password: '',
      ...REAUTH,
      is_admin: true,
    });
    expect(extra.status).toBe(400);
    expect(extra.body.fields?.map((f) => f.field)).toEqual(['is_admin']);
    expect((await t.client.get('/api/auth/me')).body).toEqual({ username: TEST_ADMIN.username, authDisabled: false });
  });

  it('answers 409 when another account already uses the email, in any letter case', async () => {
    await addOtherUser();
    const res = await t.client.post<ApiError>('/api/auth/me', {
      username: OTHER.username.toUpperCase(),
      password: 'would-be-new-password',
      ...REAUTH,
    });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ code: 'conflict', detail: `Another account already uses ${OTHER.username}.` });
    expect(await loginStatus(TEST_ADMIN.username, TEST_ADMIN.password)).toBe(200);
  });
});

describe('API keys', () => {
  it('generates a key shown once, authenticates with it, records its use, and refuses it once revoked', async () => {
    const created = await t.client.post<NewApiKey>('/api/auth/api/keys/new', { key_name: 'ci', ...REAUTH });
    expect(created.status).toBe(200);
    const key = created.body;
    expect(key).toEqual({
      id: expect.any(Number),
      key_name: 'ci',
      created_at: expect.any(String),
      last_used_at: null,
      token: expect.stringMatching(/^berth_[A-Za-z0-9_-]{43}$/),
    });
    expect(Date.parse(key.created_at)).toBeGreaterThan(Date.now() - 60_000);

    const stored = t.ctx.db.prepare('SELECT token_hash FROM api_keys WHERE id = ?').pluck().get(key.id);
    expect(stored).toBe(crypto.createHash('sha256').update(key.token).digest('hex'));

    const bearer = t.anon();
    bearer.bearer = key.token;
    expect((await bearer.get('/api/auth/me')).body).toEqual({ username: TEST_ADMIN.username, authDisabled: false });
    const list = await bearer.get<ApiKey[]>('/api/auth/api/keys');
    expect(list.status).toBe(200);
    const listed = list.body.find((k) => k.id === key.id);
    expect(listed).toEqual({
      id: key.id,
      key_name: 'ci',
      created_at: key.created_at,
      last_used_at: expect.any(String),
    });
    expect(listed).not.toHaveProperty('token');

    expect((await t.client.delete(`/api/auth/api/keys/${key.id}`)).body).toEqual({ msg: `API key ${key.id} revoked.` });
    const after = await bearer.get<ApiError>('/api/auth/me');
    expect(after.status).toBe(401);
    expect(after.body.detail).toBe('Unknown or revoked API key.');
    expect((await t.client.get<ApiKey[]>('/api/auth/api/keys')).body.some((k) => k.id === key.id)).toBe(false);
    expect((await t.client.delete(`/api/auth/api/keys/${key.id}`)).status).toBe(404);
  });

  it('revokes with POST and GET too, and answers 404 for an unknown id', async () => {
    const a = (await t.client.post<NewApiKey>('/api/auth/api/keys/new', { key_name: 'a', ...REAUTH })).body;
    const b = (await t.client.post<NewApiKey>('/api/auth/api/keys/new', { key_name: 'b', ...REAUTH })).body;
    expect((await t.client.post(`/api/auth/api/keys/${a.id}`)).status).toBe(200);
    expect((await t.client.get(`/api/auth/api/keys/${b.id}`)).status).toBe(200);
    expect((await t.client.get<ApiKey[]>('/api/auth/api/keys')).body).toEqual([]);
    const unknown = await t.client.delete<ApiError>('/api/auth/api/keys/99999');
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('not_found');
    expect((await t.client.delete<ApiError>('/api/auth/api/keys/abc')).status).toBe(400);
  });

  it("cannot list or revoke another user's key; a key acts as the user who made it", async () => {
    await addOtherUser();
    const other = await signIn(OTHER.username, OTHER.password);
    const theirs = (
      await other.post<NewApiKey>('/api/auth/api/keys/new', { key_name: 'theirs', current_password: OTHER.password })
    ).body;

    expect((await t.client.get<ApiKey[]>('/api/auth/api/keys')).body.some((k) => k.id === theirs.id)).toBe(false);
    for (const method of ['DELETE', 'POST', 'GET']) {
      expect(
        (await t.client.request(method, `/api/auth/api/keys/${theirs.id}`, method === 'POST' ? {} : undefined)).status,
        method,
      ).toBe(404);
    }
    const asTheirKey = await t.anon().get('/api/auth/me', { authorization: `Bearer ${theirs.token}` });
    expect(asTheirKey.body).toEqual({ username: OTHER.username, authDisabled: false });
  });

  it('refuses an empty key name with a 400 naming the field', async () => {
    const res = await t.client.post<ApiError>('/api/auth/api/keys/new', { key_name: '   ', ...REAUTH });
    expect(res.status).toBe(400);
    expect(res.body.fields?.map((f) => f.field)).toEqual(['key_name']);
    expect((await t.client.get<ApiKey[]>('/api/auth/api/keys')).body).toEqual([]);
  });

  it('refuses a made-up key of the right shape', async () => {
    const res = await t.anon().get<ApiError>('/api/auth/me', { authorization: `Bearer berth_${'A'.repeat(43)}` });
    expect(res.status).toBe(401);
    expect(res.body.detail).toBe('Unknown or revoked API key.');
  });
});

describe('re-authentication for sensitive changes', () => {
  const WRONG = { current_password: 'not-the-password' };

  it('refuses an email or password change without, or with a wrong, current password; nothing changes', async () => {
    for (const extra of [{}, WRONG]) {
      const res = await t.client.post<ApiError>('/api/auth/me', {
        username: 'taken.over@berth.test',
        password: 'attacker-password',
        ...extra,
      });
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('reauth_failed');
      expect(res.body.detail).toMatch(extra === WRONG ? /current password is wrong/ : /current_password/);
    }
    expect(await loginStatus(TEST_ADMIN.username, TEST_ADMIN.password)).toBe(200);
    expect(await loginStatus('taken.over@berth.test', 'attacker-password')).toBe(401);
  });

  it('refuses a key without, or with a wrong, current password', async () => {
    for (const extra of [{}, WRONG]) {
      const res = await t.client.post<ApiError>('/api/auth/api/keys/new', { key_name: 'nope', ...extra });
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('reauth_failed');
    }
    expect((await t.client.get<ApiKey[]>('/api/auth/api/keys')).body).toEqual([]);
  });

  it('an API key alone cannot change the password or mint keys, even with the right password for key creation', async () => {
    const key = (await t.client.post<NewApiKey>('/api/auth/api/keys/new', { key_name: 'leaked', ...REAUTH })).body;
    const thief = t.anon();
    thief.bearer = key.token;
    const change = await thief.post<ApiError>('/api/auth/me', {
      username: TEST_ADMIN.username,
      password: 'attacker-password',
    });
    expect(change.status).toBe(403);
    expect(change.body.code).toBe('reauth_failed');
    const mint = await thief.post<ApiError>('/api/auth/api/keys/new', { key_name: 'second', ...REAUTH });
    expect(mint.status).toBe(403);
    expect(mint.body).toMatchObject({
      code: 'forbidden',
      detail: expect.stringMatching(/API key cannot create API keys/),
    });
    expect((await t.client.get<ApiKey[]>('/api/auth/api/keys')).body.map((k) => k.key_name)).toEqual(['leaked']);
  });
});
