import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApiError } from '@berth/contract';
import { loadConfig } from '../src/config';
import { createTestApp, TEST_ADMIN, type TestApp } from './helpers/app';

const repoRoot = path.resolve(import.meta.dirname, '../..');
const open: TestApp[] = [];
const dirs: string[] = [];

async function start(env: Record<string, string> = {}, signIn = true): Promise<TestApp> {
  const t = await createTestApp(env, { signIn });
  open.push(t);
  return t;
}

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'berth-t-auth-'));
  dirs.push(dir);
  return dir;
}

const mode = (file: string) => fs.statSync(file).mode & 0o777;

afterEach(async () => {
  for (const t of open.splice(0)) await t.close();
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe('first start', () => {
  it('without ADMIN_PASSWORD writes a generated password to initial-admin-password (0600) that signs in', async () => {
    const dataDir = tempDir();
    const t = await start({ DATA_DIR: dataDir, ADMIN_PASSWORD: '' });
    const file = path.join(dataDir, 'initial-admin-password');
    expect(mode(file)).toBe(0o600);
    const password = fs.readFileSync(file, 'utf8').trim();
    expect(password).toMatch(/^[A-Za-z0-9_-]{24}$/);

    expect(
      (await t.anon().post('/api/auth/login', { username: TEST_ADMIN.username, password: TEST_ADMIN.password })).status,
    ).toBe(401);
    const c = t.anon();
    await c.login(TEST_ADMIN.username, password);
    expect((await c.get('/api/auth/me')).body).toEqual({ username: TEST_ADMIN.username, authDisabled: false });

    // Once the password is changed, the stale file goes away.
    expect(
      (
        await c.post('/api/auth/me', {
          username: TEST_ADMIN.username,
          password: 'my-own-password',
          current_password: password,
        })
      ).status,
    ).toBe(200);
    expect(fs.existsSync(file)).toBe(false);
  });

  it('keeps the first-start password file while other accounts change theirs, and drops it once another admin resets that password', async () => {
    const dataDir = tempDir();
    const t = await start({ DATA_DIR: dataDir, ADMIN_PASSWORD: '' }, false);
    const file = path.join(dataDir, 'initial-admin-password');
    const initial = fs.readFileSync(file, 'utf8').trim();
    const first = t.anon();
    await first.login(TEST_ADMIN.username, initial);
    const other = { email: 'second-admin@berth.test', password: 'second-admin-pw' };
    expect((await first.post('/api/users', { ...other, role: 'admin', current_password: initial })).status).toBe(200);
    const second = t.anon();
    await second.login(other.email, other.password);
    const changed = await second.post('/api/auth/me', {
      username: other.email,
      password: 'second-admin-pw-2',
      current_password: other.password,
    });
    expect(changed.status).toBe(200);
    expect(fs.readFileSync(file, 'utf8').trim()).toBe(initial);

    const users = (await second.get<{ id: number; email: string }[]>('/api/users')).body;
    const firstId = users.find((u) => u.email === TEST_ADMIN.username)!.id;
    const reset = await second.patch(`/api/users/${firstId}`, {
      password: 'reset-by-second-admin',
      current_password: 'second-admin-pw-2',
    });
    expect(reset.status, reset.text).toBe(200);
    expect(fs.existsSync(file)).toBe(false);
  });

  it('does not make a second admin or a new password on later starts', async () => {
    const dataDir = tempDir();
    await (await start({ DATA_DIR: dataDir, ADMIN_PASSWORD: '' })).close();
    open.length = 0;
    const first = fs.readFileSync(path.join(dataDir, 'initial-admin-password'), 'utf8');
    const t = await start({ DATA_DIR: dataDir, ADMIN_PASSWORD: 'a-different-password' }, false);
    expect(fs.readFileSync(path.join(dataDir, 'initial-admin-password'), 'utf8')).toBe(first);
    expect(t.ctx.db.prepare('SELECT COUNT(*) FROM users').pluck().get()).toBe(1);
    expect(
      (await t.anon().post('/api/auth/login', { username: TEST_ADMIN.username, password: 'a-different-password' }))
        .status,
    ).toBe(401);
    expect(
      (await t.anon().post('/api/auth/login', { username: TEST_ADMIN.username, password: first.trim() })).status,
    ).toBe(200);
  });
});

describe('file modes', () => {
  it('makes the database (and -wal/-shm), the signing key and the initial password 0600 in a 0777 DATA_DIR, and tightens a loose database', async () => {
    const dataDir = tempDir();
    fs.chmodSync(dataDir, 0o777);
    // A permissive umask as well, where this test process may set one (not in worker threads).
    let oldUmask: number | null = null;
    try {
      oldUmask = process.umask(0);
    } catch {
      oldUmask = null;
    }
    try {
      const t = await start({ DATA_DIR: dataDir, ADMIN_PASSWORD: '' });
      const password = fs.readFileSync(path.join(dataDir, 'initial-admin-password'), 'utf8').trim();
      await t.anon().login(TEST_ADMIN.username, password); // writes to the WAL
      for (const f of ['berth.db', 'berth.db-wal', 'berth.db-shm', 'keys/secret.key', 'initial-admin-password']) {
        expect(mode(path.join(dataDir, f)), f).toBe(0o600);
      }
      await t.close();
      open.length = 0;
      fs.chmodSync(path.join(dataDir, 'berth.db'), 0o644);
      await start({ DATA_DIR: dataDir }, false);
      expect(mode(path.join(dataDir, 'berth.db'))).toBe(0o600);
    } finally {
      if (oldUmask !== null) process.umask(oldUmask);
    }
  });
});

describe('signing key', () => {
  it('is made once with mode 0600 and reused after a restart, so sessions survive it', async () => {
    const dataDir = tempDir();
    const first = await start({ DATA_DIR: dataDir });
    const file = path.join(dataDir, 'keys', 'secret.key');
    expect(mode(file)).toBe(0o600);
    const key = fs.readFileSync(file, 'utf8');
    expect(key.trim()).toMatch(/^[0-9a-f]{64}$/);
    const cookies = new Map(first.client.cookies);
    await first.close();
    open.length = 0;

    const second = await start({ DATA_DIR: dataDir });
    expect(fs.readFileSync(file, 'utf8')).toBe(key);
    const c = second.anon();
    for (const [k, v] of cookies) c.cookies.set(k, v);
    expect((await c.get('/api/auth/me')).status).toBe(200);
  });

  it('moves the key file of an older version into the 0700 keys folder, so sessions survive the move', async () => {
    const dataDir = tempDir();
    const first = await start({ DATA_DIR: dataDir });
    const cookies = new Map(first.client.cookies);
    await first.close();
    open.length = 0;
    const key = fs.readFileSync(path.join(dataDir, 'keys', 'secret.key'), 'utf8');
    // The layout before issue 32: the key beside the database.
    fs.renameSync(path.join(dataDir, 'keys', 'secret.key'), path.join(dataDir, 'secret.key'));
    fs.rmdirSync(path.join(dataDir, 'keys'));

    const second = await start({ DATA_DIR: dataDir });
    expect(fs.existsSync(path.join(dataDir, 'secret.key'))).toBe(false);
    expect(fs.readFileSync(path.join(dataDir, 'keys', 'secret.key'), 'utf8')).toBe(key);
    expect(mode(path.join(dataDir, 'keys'))).toBe(0o700);
    const c = second.anon();
    for (const [k, v] of cookies) c.cookies.set(k, v);
    expect((await c.get('/api/auth/me')).status).toBe(200);
  });

  it('comes from SECRET_KEY when set: no key file is written', async () => {
    const dataDir = tempDir();
    const t = await start({ DATA_DIR: dataDir, SECRET_KEY: 'k'.repeat(40) });
    expect(fs.existsSync(path.join(dataDir, 'keys', 'secret.key'))).toBe(false);
    expect((await t.client.get('/api/auth/me')).status).toBe(200);
  });
});

describe('DISABLE_AUTH=true', () => {
  it('lets requests through as admin and refuses account and key endpoints with a clear 400', async () => {
    const t = await start({ DISABLE_AUTH: 'true' });
    const anon = t.anon();
    expect((await anon.get('/api/auth/me')).body).toEqual({ username: 'admin', authDisabled: true });
    expect((await anon.get('/api/docs/json')).status).toBe(200);
    expect((await anon.get('/api/no-such-thing')).status).toBe(404);
    const calls: [string, string, unknown?][] = [
      ['GET', '/api/auth/api/keys'],
      ['POST', '/api/auth/api/keys/new', { key_name: 'x' }],
      ['DELETE', '/api/auth/api/keys/1'],
      ['GET', '/api/auth/api/keys/1'],
      ['POST', '/api/auth/me', { username: 'someone@berth.test', password: 'password-123' }],
      ['POST', '/api/auth/login', TEST_ADMIN],
    ];
    // With auth off, state changes carry the token of the open GET /api/auth/csrf (issue 22.1).
    const csrf = (await anon.get<{ csrf: string }>('/api/auth/csrf')).body.csrf;
    for (const [method, url, body] of calls) {
      const res = await anon.request<ApiError>(method, url, body, { 'x-csrf-token': csrf });
      expect(res.status, `${method} ${url}`).toBe(400);
      expect(res.body.code).toBe('auth_disabled');
      expect(res.body.detail).toMatch(/DISABLE_AUTH=true/);
    }
  });
});

describe('cookies over HTTPS', () => {
  it('are marked Secure when the request came over https (behind a trusted proxy)', async () => {
    const t = await start({ TRUST_PROXY: 'true' });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: TEST_ADMIN,
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(res.statusCode).toBe(200);
    const cookies = res.cookies as { name: string; secure?: boolean }[];
    expect(cookies).toHaveLength(4);
    expect(cookies.every((c) => c.secure === true)).toBe(true);
  });
});

describe('TRUST_PROXY', () => {
  it('accepts true (one hop), a hop count, or proxy addresses/CIDRs', () => {
    const parse = (v: string) => loadConfig({ TRUST_PROXY: v }).trustProxy;
    expect(parse('true')).toBe(1);
    expect(parse('false')).toBe(false);
    expect(parse('2')).toBe(2);
    expect(parse('10.0.0.0/8, 127.0.0.1,::1')).toEqual(['10.0.0.0/8', '127.0.0.1', '::1']);
    expect(() => parse('proxy.example')).toThrow(/TRUST_PROXY/);
  });

  it('takes the client address from the trusted hop, so a forged left-most X-Forwarded-For gets no fresh guesses', async () => {
    const t = await start({ TRUST_PROXY: 'true' });
    const wrong = { username: TEST_ADMIN.username, password: 'guess-guess' };
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      // The proxy (127.0.0.1) appends the address it saw (10.9.9.9); the attacker varies the left-most value.
      const res = await t.anon().post('/api/auth/login', wrong, { 'x-forwarded-for': `198.51.100.${i + 1}, 10.9.9.9` });
      statuses.push(res.status);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
  });

  it('with proxy addresses, believes X-Forwarded-For only from those proxies', async () => {
    const t = await start({ TRUST_PROXY: '10.1.0.0/16' });
    const wrong = { username: TEST_ADMIN.username, password: 'guess-guess' };
    const statuses: number[] = [];
    // Not from a trusted proxy: the forged header is ignored and every guess counts against the socket address.
    for (let i = 0; i < 6; i++)
      statuses.push(
        (await t.anon('192.0.2.7').post('/api/auth/login', wrong, { 'x-forwarded-for': `203.0.113.${i + 1}` })).status,
      );
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
  });
});

describe('login throttle', () => {
  it('caps failures per account across addresses (429 with Retry-After), while existing sessions keep working', async () => {
    const t = await start();
    const wrong = { username: TEST_ADMIN.username, password: 'guess-guess' };
    for (let i = 0; i < 10; i++)
      expect((await t.anon(`10.88.0.${i + 1}`).post('/api/auth/login', wrong)).status).toBe(401);
    const blocked = await t.anon('10.88.1.1').post<ApiError>('/api/auth/login', TEST_ADMIN);
    expect(blocked.status).toBe(429);
    expect(blocked.body).toEqual({
      code: 'too_many_requests',
      detail: expect.stringMatching(/for this account\. Try again in \d+ seconds?\.$/),
    });
    const retryAfter = Number(blocked.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(30);
    // The owner's existing session and its refresh are untouched.
    expect((await t.client.get('/api/auth/me')).status).toBe(200);
    expect((await t.client.post('/api/auth/refresh')).status).toBe(200);
    expect((await t.client.get('/api/auth/me')).status).toBe(200);
  });

  it('answers 429 with Retry-After after 5 failures from one client, while another client still signs in', async () => {
    const t = await start();
    const attacker = t.anon('10.66.0.1');
    const wrong = { username: TEST_ADMIN.username, password: 'guess-guess' };
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await attacker.post('/api/auth/login', wrong)).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401]);

    const blocked = await attacker.post<ApiError>('/api/auth/login', wrong);
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(blocked.body).toEqual({
      code: 'too_many_requests',
      detail: expect.stringMatching(
        /^Too many failed sign-in attempts from this address\. Try again in \d+ seconds?\.$/,
      ),
    });
    // The failing client is slowed even with the right password.
    expect((await attacker.post('/api/auth/login', TEST_ADMIN)).status).toBe(429);

    for (let i = 0; i < 14; i++) statuses.push((await attacker.post('/api/auth/login', wrong)).status);
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(7);
    expect(statuses.slice(-5)).toEqual([429, 429, 429, 429, 429]);

    const owner = t.anon('10.77.0.2');
    await owner.login();
    expect((await owner.get('/api/auth/me')).status).toBe(200);
  });
});

describe('server log', () => {
  it('shows the generated admin password once at warn level and never a token or cookie', async () => {
    const dataDir = tempDir();
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'debug',
      ADMIN_EMAIL: TEST_ADMIN.username,
    };
    delete env.ADMIN_PASSWORD;
    delete env.SECRET_KEY;
    delete env.DISABLE_AUTH;
    const server = spawn(process.execPath, ['--import', 'tsx', path.join('server', 'src', 'main.ts')], {
      cwd: repoRoot,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    server.stdout.on('data', (d: Buffer) => (out += d.toString()));
    server.stderr.on('data', (d: Buffer) => (out += d.toString()));
    try {
      const base = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`server did not start:\n${out}`)), 60_000);
        const check = () => {
          const m = /"msg":"Server listening at (http:\/\/127\.0\.0\.1:\d+)"/.exec(out);
          if (m) {
            clearTimeout(timer);
            resolve(m[1]!);
          }
        };
        server.stdout.on('data', check);
        server.on('exit', (code) => reject(new Error(`server exited (${code}):\n${out}`)));
      });
      const password = fs.readFileSync(path.join(dataDir, 'initial-admin-password'), 'utf8').trim();
      const login = await fetch(`${base}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: TEST_ADMIN.username, password }),
      });
      expect(login.status).toBe(200);
      const setCookies = login.headers.getSetCookie();
      const cookieHeader = setCookies.map((c) => c.split(';')[0]).join('; ');
      const csrf = /csrf_access_token=([^;]+)/.exec(cookieHeader)![1]!;
      const me = await fetch(`${base}/api/auth/me`, { headers: { cookie: cookieHeader } });
      expect(me.status).toBe(200);
      const key = await fetch(`${base}/api/auth/api/keys/new`, {
        method: 'POST',
        headers: { cookie: cookieHeader, 'x-csrf-token': csrf, 'content-type': 'application/json' },
        body: JSON.stringify({ key_name: 'log', current_password: password }),
      });
      const token = ((await key.json()) as { token: string }).token;
      expect((await fetch(`${base}/api/auth/me`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
      await fetch(`${base}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: TEST_ADMIN.username, password: 'wrong-password-in-body' }),
      });
      // Secrets in a query string are redacted from the logged URL (issue 22.14).
      await fetch(
        `${base}/api/health?token=QTOKEN1&api_key=QKEY2&Access-Token=QTOKEN3&password=QPASS4&visible=plain-value`,
      );
      await new Promise((r) => setTimeout(r, 200));
      expect(out).toMatch(
        /"url":"\/api\/health\?token=\[redacted\]&api_key=\[redacted\]&Access-Token=\[redacted\]&password=\[redacted\]&visible=plain-value"/,
      );
      expect(out).not.toMatch(/QTOKEN1|QKEY2|QTOKEN3|QPASS4/);

      expect(out).toMatch(/"msg":"incoming request"/); // request logging was on, so the checks below mean something
      const lines = out.split('\n').filter((l) => l.includes(password));
      expect(lines).toHaveLength(1);
      expect(JSON.parse(lines[0]!)).toMatchObject({ level: 40 });
      expect(lines[0]).toMatch(/Sign in as admin@berth\.test/);
      expect(out).not.toMatch(/eyJ/);
      expect(out).not.toContain(token);
      expect(out).not.toContain(csrf);
      expect(out).not.toContain('wrong-password-in-body');
    } finally {
      server.kill('SIGTERM');
      await new Promise((r) => server.once('exit', r));
    }
  });
});
