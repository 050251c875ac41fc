import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate } from 'otplib';
import type { ApiError, LoginResult, RecoveryCodes, TotpSetup, User } from '@berth/contract';
import { createTestApp, REAUTH, TEST_ADMIN, type TestApp } from './helpers/app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const USER = { email: 'totp@berth.test', password: 'totp-user-password' };
/** The code an authenticator app shows `offsetSeconds` from now (within the one-period tolerance). */
const codeAt = (secret: string, offsetSeconds: number) =>
  generate({ secret, epoch: Math.floor(Date.now() / 1000) + offsetSeconds });

async function passwordStep() {
  const res = await t.anon().post<LoginResult>('/api/auth/login', { username: USER.email, password: USER.password });
  expect(res.status, res.text).toBe(200);
  return res;
}

async function challenge(): Promise<string> {
  const res = await passwordStep();
  expect(res.body).toMatchObject({ totp_required: true });
  // No session until the second factor.
  expect(res.headers['set-cookie']).toBeUndefined();
  return (res.body as { challenge: string }).challenge;
}

describe('TOTP', () => {
  let secret = '';
  let recovery: string[] = [];

  beforeAll(async () => {
    const made = await t.client.post<User>('/api/users', { ...USER, role: 'viewer', ...REAUTH });
    expect(made.status, made.text).toBe(200);
  });

  it('setup gives a base32 secret, its otpauth URL and an SVG QR; it counts only once enabled', async () => {
    const c = t.anon();
    await c.login(USER.email, USER.password);
    const setup = await c.post<TotpSetup>('/api/auth/totp/setup');
    expect(setup.status, setup.text).toBe(200);
    secret = setup.body.secret;
    expect(secret).toMatch(/^[A-Z2-7]+=*$/);
    expect(setup.body.otpauth_url).toMatch(/^otpauth:\/\/totp\/Berth:totp%40berth\.test\?.*secret=/);
    expect(setup.body.qr).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(Buffer.from(setup.body.qr.split(',')[1]!, 'base64').toString()).toContain('<svg');
    // Not enabled yet: the password alone still signs in.
    expect((await passwordStep()).body).toMatchObject({ username: USER.email });

    const wrong = await c.post<ApiError>('/api/auth/totp/enable', {
      code: (Number(await codeAt(secret, 0)) ^ 1).toString().padStart(6, '0'),
    });
    expect(wrong.status).toBe(401);
    const enabled = await c.post<RecoveryCodes>('/api/auth/totp/enable', { code: await codeAt(secret, 0) });
    expect(enabled.status, enabled.text).toBe(200);
    recovery = enabled.body.recovery_codes;
    expect(recovery).toHaveLength(10);
    expect(new Set(recovery).size).toBe(10);
    // Stored hashed; never in the users list.
    const list = await t.client.get<User[]>('/api/users');
    expect(list.body.find((u) => u.email === USER.email)?.totp_enabled).toBe(true);
    expect(list.text).not.toContain(recovery[0]);
    expect(t.ctx.db.prepare('SELECT code_hash FROM recovery_codes').pluck().all()).not.toContain(recovery[0]);
  });

  it('signs in with a fresh code, refuses the same code again and a wrong one', async () => {
    const code = await codeAt(secret, 30);
    const c = t.anon();
    const ok = await c.post('/api/auth/login/totp', { challenge: await challenge(), code });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body).toEqual({ username: USER.email, authDisabled: false });
    expect((await c.get('/api/auth/me')).status).toBe(200);

    const replay = await t.anon().post<ApiError>('/api/auth/login/totp', { challenge: await challenge(), code });
    expect(replay.status).toBe(401);
    expect(replay.body.detail).toContain('already used');
    const wrong = await t.anon().post<ApiError>('/api/auth/login/totp', {
      challenge: await challenge(),
      code: '000000' === code ? '111111' : '000000',
    });
    expect(wrong.status).toBe(401);
  });

  it('refuses a forged or tampered challenge', async () => {
    const real = await challenge();
    const [head, body, sig] = real.split('.');
    const payload = JSON.parse(Buffer.from(body!, 'base64url').toString()) as Record<string, unknown>;
    const forged = `${head}.${Buffer.from(JSON.stringify({ ...payload, sub: '1' })).toString('base64url')}.${sig}`;
    const res = await t
      .anon()
      .post<ApiError>('/api/auth/login/totp', { challenge: forged, recovery_code: recovery[9] });
    expect(res.status).toBe(401);
    // An access token is not a challenge either.
    const access = t.client.cookies.get('access_token_cookie')!;
    expect(
      (await t.anon().post('/api/auth/login/totp', { challenge: access, recovery_code: recovery[9] })).status,
    ).toBe(401);
  });

  it('a recovery code works once', async () => {
    const ok = await t
      .anon()
      .post('/api/auth/login/totp', { challenge: await challenge(), recovery_code: recovery[0]!.toLowerCase() });
    expect(ok.status, ok.text).toBe(200);
    const again = await t
      .anon()
      .post('/api/auth/login/totp', { challenge: await challenge(), recovery_code: recovery[0] });
    expect(again.status).toBe(401);
  });

  it('turning TOTP off needs the password and a code; then the password alone signs in', async () => {
    const c = t.anon();
    await c.post('/api/auth/login/totp', { challenge: await challenge(), recovery_code: recovery[1] });
    expect((await c.post('/api/auth/totp/disable', { password: 'not-the-password', code: recovery[2] })).status).toBe(
      403,
    );
    const off = await c.post('/api/auth/totp/disable', { password: USER.password, code: recovery[2] });
    expect(off.status, off.text).toBe(200);
    expect((await passwordStep()).body).toMatchObject({ username: USER.email });
  });

  it('the admin signs in without a code (TOTP is per user)', async () => {
    expect(
      (await t.anon().post('/api/auth/login', { username: TEST_ADMIN.username, password: TEST_ADMIN.password })).body,
    ).toMatchObject({ username: TEST_ADMIN.username });
  });
});

describe('an admin with TOTP on', () => {
  it('confirms account changes with the current password and a code (hardening II #12)', async () => {
    const admin = { email: 'totp-admin@berth.test', password: 'totp-admin-password' };
    expect((await t.client.post('/api/users', { ...admin, role: 'admin', ...REAUTH })).status).toBe(200);
    const c = t.anon();
    await c.login(admin.email, admin.password);
    const { secret } = (await c.post<TotpSetup>('/api/auth/totp/setup')).body;
    expect((await c.post('/api/auth/totp/enable', { code: await codeAt(secret, 0) })).status).toBe(200);

    const user = { email: 'made-by-totp-admin@berth.test', password: 'made-by-totp-admin', role: 'viewer' };
    const noCode = await c.post<ApiError>('/api/users', { ...user, current_password: admin.password });
    expect(noCode.status).toBe(403);
    expect(noCode.body).toMatchObject({ code: 'reauth_failed' });
    expect(noCode.body.detail).toContain('totp_code');
    const wrong = await c.post<ApiError>('/api/users', {
      ...user,
      current_password: admin.password,
      totp_code: '000000',
    });
    expect(wrong.status).toBe(403);
    expect(wrong.body.code).toBe('reauth_failed');
    expect((await t.client.get<User[]>('/api/users')).body.some((u) => u.email === user.email)).toBe(false);
    // The code of the next period: the one that turned TOTP on is used up.
    const made = await c.post<User>('/api/users', {
      ...user,
      current_password: admin.password,
      totp_code: await codeAt(secret, 30),
    });
    expect(made.status, made.text).toBe(200);
  });
});
