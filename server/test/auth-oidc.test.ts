import http from 'node:http';
import type net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Provider from 'oidc-provider';
import { generate } from 'otplib';
import { OIDC_ERROR_PARAM, type ApiError, type AuthStatus, type OidcError, type User } from '@berth/contract';
import { createTestApp, REAUTH, TEST_ADMIN, type TestApp } from './helpers/app';

/**
 * A real OpenID Connect provider (oidc-provider, with its development login and consent pages)
 * on 127.0.0.1, and Berth configured for it. The test walks the provider's pages over HTTP the
 * way a browser would, then hands the provider's redirect to Berth's callback.
 */
const REDIRECT = 'http://berth.test/api/auth/oidc/callback';
const ADMIN_GROUP = 'berth-admins';

let t: TestApp;
let idp: http.Server;
/** Berth's settings for the test provider. */
let OIDC_ENV: Record<string, string> = {};

beforeAll(async () => {
  let handler: http.RequestListener = (_req, res) => res.writeHead(503).end();
  idp = http.createServer((req, res) => handler(req, res));
  await new Promise<void>((resolve) => idp.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(idp.address() as net.AddressInfo).port}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: 'berth',
        client_secret: 'berth-client-secret',
        redirect_uris: [REDIRECT],
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    // Accounts named boss-* are in the admin group; a name with "unverified" has no verified email.
    findAccount: (_ctx, id) => ({
      accountId: id,
      claims: () => ({
        sub: id,
        email: `${id}@idp.test`,
        email_verified: !id.includes('unverified'),
        groups: id.startsWith('boss') ? [ADMIN_GROUP, 'staff'] : ['staff'],
      }),
    }),
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['groups'] },
    conformIdTokenClaims: false,
    cookies: { keys: ['oidc-test-cookie-key'] },
  });
  handler = provider.callback();
  OIDC_ENV = {
    OIDC_ISSUER: issuer,
    OIDC_CLIENT_ID: 'berth',
    OIDC_CLIENT_SECRET: 'berth-client-secret',
    OIDC_REDIRECT_URL: REDIRECT,
    OIDC_NAME: 'Test IdP',
    OIDC_ADMIN_GROUP: ADMIN_GROUP,
  };
  t = await createTestApp(OIDC_ENV);
});
afterAll(async () => {
  await t?.close();
  await new Promise((resolve) => idp?.close(resolve));
});

/** GET /api/auth/oidc/login: the provider's URL and the flow cookie Berth set. */
async function start(on: TestApp = t): Promise<{ url: URL; flowCookie: string }> {
  const res = await on.app.inject({ method: 'GET', url: '/api/auth/oidc/login' });
  expect(res.statusCode, res.body).toBe(302);
  const cookie = res.cookies.find((c) => c.name === 'berth_oidc_flow')!;
  expect(cookie.httpOnly).toBe(true);
  return { url: new URL(res.headers.location as string), flowCookie: `${cookie.name}=${cookie.value}` };
}

/** Signs in at the provider as `login` (development pages: any password) and returns its redirect to Berth. */
async function atProvider(authorizeUrl: URL, login: string): Promise<string> {
  const jar = new Map<string, string>();
  let url = authorizeUrl.href;
  let body: string | undefined;
  for (let hop = 0; hop < 20; hop++) {
    const res = await fetch(url, {
      method: body ? 'POST' : 'GET',
      redirect: 'manual',
      headers: {
        cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; '),
        ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      body,
    });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const [name, ...value] = pair!.split('=');
      jar.set(name!, value.join('='));
    }
    const location = res.headers.get('location');
    if (location) {
      const next = new URL(location, url).href;
      if (next.startsWith(REDIRECT)) return next;
      [url, body] = [next, undefined];
      continue;
    }
    const html = await res.text();
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
    if (!action) throw new Error(`unexpected provider page (${res.status}): ${html.slice(0, 300)}`);
    url = new URL(action, url).href;
    body = html.includes('name="login"')
      ? new URLSearchParams({ prompt: 'login', login, password: 'any' }).toString()
      : new URLSearchParams({ prompt: 'consent' }).toString();
  }
  throw new Error('the provider never redirected back');
}

async function callback(redirect: string, flowCookie: string, on: TestApp = t) {
  const u = new URL(redirect);
  return on.app.inject({ method: 'GET', url: `/api/auth/oidc/callback${u.search}`, headers: { cookie: flowCookie } });
}

async function signInAs(login: string, on: TestApp = t) {
  const { url, flowCookie } = await start(on);
  return callback(await atProvider(url, login), flowCookie, on);
}

/** Who the session cookies of a callback's answer sign in as. */
async function whoIs(res: Awaited<ReturnType<typeof callback>>, on: TestApp = t) {
  const access = res.cookies.find((c) => c.name === 'access_token_cookie')!;
  const status = await on.app.inject({
    method: 'GET',
    url: '/api/auth/status',
    headers: { cookie: `access_token_cookie=${access.value}` },
  });
  return status.json<AuthStatus>();
}

const userByEmail = async (email: string) =>
  (await t.client.get<User[]>('/api/users')).body.find((u) => u.email === email);

describe('OpenID Connect sign-in', () => {
  it('the login page learns the provider name; the flow uses PKCE (S256), state and nonce', async () => {
    const status = await t.anon().get<AuthStatus>('/api/auth/status');
    expect(status.body).toMatchObject({ signedIn: false, oidc_name: 'Test IdP', password_login: true });
    const { url } = await start();
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    for (const p of ['code_challenge', 'state', 'nonce']) expect(url.searchParams.get(p)).toBeTruthy();
    expect(url.searchParams.get('redirect_uri')).toBe(REDIRECT);
  });

  it('a user in the admin group becomes an admin; the session cookies work', async () => {
    const res = await signInAs('boss-ada');
    expect(res.statusCode, res.body).toBe(302);
    expect(res.headers.location).toBe('/');
    const access = res.cookies.find((c) => c.name === 'access_token_cookie')!;
    const status = await t.app.inject({
      method: 'GET',
      url: '/api/auth/status',
      headers: { cookie: `access_token_cookie=${access.value}` },
    });
    expect(status.json()).toMatchObject({ signedIn: true, username: 'boss-ada@idp.test', role: 'admin' });
    expect(await userByEmail('boss-ada@idp.test')).toMatchObject({ role: 'admin' });
  });

  it('a user without the group becomes a viewer; signing in again reuses the account', async () => {
    expect((await signInAs('bob')).statusCode).toBe(302);
    expect((await signInAs('bob')).statusCode).toBe(302);
    const users = (await t.client.get<User[]>('/api/users')).body.filter((u) => u.email === 'bob@idp.test');
    expect(users).toHaveLength(1);
    expect(users[0]!.role).toBe('viewer');
  });

  it('never takes over an existing password account by email; its owner links it after re-authenticating (hardening II #2)', async () => {
    await t.client.post('/api/users', {
      email: 'carol@idp.test',
      password: 'carol-local-pw',
      role: 'operator',
      ...REAUTH,
    });
    expectRefused(await signInAs('carol'), 'link_required');
    const carol = t.anon();
    await carol.login('carol@idp.test', 'carol-local-pw');
    expect((await carol.post<ApiError>('/api/auth/oidc/link', {})).body.code).toBe('reauth_failed');
    const wrong = await carol.post<ApiError>('/api/auth/oidc/link', { current_password: 'not-carols' });
    expect(wrong.status).toBe(403);
    const linkStart = await carol.post<{ url: string }>('/api/auth/oidc/link', { current_password: 'carol-local-pw' });
    expect(linkStart.status, linkStart.text).toBe(200);
    const flowCookie = `berth_oidc_flow=${carol.cookies.get('berth_oidc_flow')!}`;
    const linked = await callback(await atProvider(new URL(linkStart.body.url), 'carol'), flowCookie);
    expect(linked.statusCode, linked.body).toBe(302);
    expect(linked.headers.location).toBe('/#/user/security');
    // From now on the provider signs carol in, with the role an admin gave her.
    const again = await signInAs('carol');
    expect(again.headers.location).toBe('/');
    expect(await whoIs(again)).toMatchObject({ signedIn: true, username: 'carol@idp.test', role: 'operator' });
    // Another Berth account cannot link the same provider account.
    const other = t.anon();
    await other.login(TEST_ADMIN.username, TEST_ADMIN.password);
    const otherStart = await other.post<{ url: string }>('/api/auth/oidc/link', REAUTH);
    expectRefused(
      await callback(
        await atProvider(new URL(otherStart.body.url), 'carol'),
        `berth_oidc_flow=${other.cookies.get('berth_oidc_flow')!}`,
      ),
      'already_linked',
    );
  });

  it('with OIDC_LINK_BY_EMAIL links by email, but never an account with TOTP on or an email its owner typed in (hardening II #2)', async () => {
    const byEmail = await createTestApp({ ...OIDC_ENV, OIDC_LINK_BY_EMAIL: 'true' });
    try {
      const add = (email: string, role: string) =>
        byEmail.client.post('/api/users', { email, password: `${email}-pw`, role, ...REAUTH });
      await add('erin@idp.test', 'operator');
      const erin = await signInAs('erin', byEmail);
      expect(erin.headers.location).toBe('/');
      expect(await whoIs(erin, byEmail)).toMatchObject({ username: 'erin@idp.test', role: 'operator' });

      // An admin with TOTP on: the provider must not stand in for the code.
      await add('boss-tina@idp.test', 'admin');
      const tina = byEmail.anon();
      await tina.login('boss-tina@idp.test', 'boss-tina@idp.test-pw');
      const { secret } = (await tina.post<{ secret: string }>('/api/auth/totp/setup')).body;
      expect((await tina.post('/api/auth/totp/enable', { code: await generate({ secret }) })).status).toBe(200);
      expectRefused(await signInAs('boss-tina', byEmail), 'link_required');

      // A viewer who types a colleague's address into their own account does not pre-claim the colleague's sign-on.
      await add('vic@berth.test', 'viewer');
      const vic = byEmail.anon();
      await vic.login('vic@berth.test', 'vic@berth.test-pw');
      const changed = await vic.post('/api/auth/me', {
        username: 'frank@idp.test',
        current_password: 'vic@berth.test-pw',
      });
      expect(changed.status, changed.text).toBe(200);
      expectRefused(await signInAs('frank', byEmail), 'link_required');
    } finally {
      await byEmail.close();
    }
  });

  /** A refusal: back to the login page with the reason's code only, and no session. */
  function expectRefused(res: Awaited<ReturnType<typeof callback>>, code: OidcError) {
    expect(res.statusCode, res.body).toBe(302);
    expect(res.headers.location).toBe(`/?${OIDC_ERROR_PARAM}=${code}`);
    expect(res.cookies.some((k) => k.name === 'access_token_cookie' && k.value)).toBe(false);
  }

  it('refuses a tampered state or nonce, a missing or forged flow cookie, an unverified email and a provider error, back to the login page', async () => {
    const a = await start();
    const badState = new URL(a.url);
    badState.searchParams.set('state', 'tampered-state');
    expectRefused(await callback(await atProvider(badState, 'mallory'), a.flowCookie), 'refused');

    const b = await start();
    const badNonce = new URL(b.url);
    badNonce.searchParams.set('nonce', 'tampered-nonce');
    expectRefused(await callback(await atProvider(badNonce, 'mallory'), b.flowCookie), 'refused');

    const c = await start();
    const redirect = await atProvider(c.url, 'mallory');
    expectRefused(
      await t.app.inject({ method: 'GET', url: `/api/auth/oidc/callback${new URL(redirect).search}` }),
      'flow_missing',
    );
    expectRefused(await callback(redirect, 'berth_oidc_flow=forged.flow.token'), 'flow_expired');

    expectRefused(await signInAs('unverified-eve'), 'email_unverified');

    // prompt=none without a provider session: the provider redirects back at once with error=login_required.
    const d = await start();
    const silent = new URL(d.url);
    silent.searchParams.set('prompt', 'none');
    expectRefused(await callback(await atProvider(silent, 'mallory'), d.flowCookie), 'provider_error');

    expect(await userByEmail('mallory@idp.test')).toBeUndefined();
    expect(await userByEmail('unverified-eve@idp.test')).toBeUndefined();
  });

  it('refuses a disabled account linked to the provider, back to the login page', async () => {
    expect((await signInAs('dave')).statusCode).toBe(302);
    const dave = (await userByEmail('dave@idp.test'))!;
    expect((await t.client.patch(`/api/users/${dave.id}`, { disabled: true, ...REAUTH })).status).toBe(200);
    expectRefused(await signInAs('dave'), 'account_disabled');
  });

  it('with OIDC_ONLY the password form is off; an unreachable provider sends the sign-on back to the login page', async () => {
    const only = await createTestApp(
      {
        OIDC_ISSUER: 'http://127.0.0.1:9',
        OIDC_CLIENT_ID: 'x',
        OIDC_CLIENT_SECRET: 'y',
        OIDC_REDIRECT_URL: REDIRECT,
        OIDC_ONLY: 'true',
      },
      { signIn: false },
    );
    try {
      expect((await only.anon().get<AuthStatus>('/api/auth/status')).body).toMatchObject({ password_login: false });
      const res = await only
        .anon()
        .post<ApiError>('/api/auth/login', { username: TEST_ADMIN.username, password: TEST_ADMIN.password });
      expect(res.status).toBe(403);
      expect(res.body.detail).toContain('Password sign-in is off');
      // Nothing listens on port 9: discovery fails at the first step.
      const sso = await only.app.inject({ method: 'GET', url: '/api/auth/oidc/login' });
      expect(sso.statusCode, sso.body).toBe(302);
      expect(sso.headers.location).toBe(`/?${OIDC_ERROR_PARAM}=provider_unreachable`);
    } finally {
      await only.close();
    }
  });
});
