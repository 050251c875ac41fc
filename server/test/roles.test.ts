import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as contract from '@berth/contract';
import { roleAllows, type ApiError, type NewApiKey, type Role, type RouteDef, type User } from '@berth/contract';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { createTestApp, REAUTH, TEST_ADMIN, TestClient, type TestApp } from './helpers/app';
import { projectName } from './helpers/compose-projects';
import { dockerCli, testEngine, tryDockerCli } from './helpers/engine';

let t: TestApp;
const actors: Actor[] = [];
beforeAll(async () => {
  t = await createTestApp();
  actors.push(await makeActor('viewer'), await makeActor('operator'));
});
afterAll(async () => {
  await t?.close();
});

/** Every route of the contract: each `*Api` object the contract exports. */
const CONTRACT: { name: string; def: RouteDef }[] = Object.entries(contract)
  .filter(([key, value]) => key.endsWith('Api') && typeof value === 'object' && value !== null)
  .flatMap(([api, routes]) =>
    Object.entries(routes as Record<string, RouteDef>).map(([name, def]) => ({ name: `${api}.${name}`, def })),
  );
/** ...and the copy of each environment route under /api/environments/local/…, which must ask the same role. */
const ROUTES = CONTRACT.flatMap((r) =>
  r.def.scope === 'environment'
    ? [
        r,
        {
          name: `${r.name}@env`,
          def: { ...r.def, path: contract.scopedContractPath(r.def.path).replace('{env}', 'local') } as RouteDef,
        },
      ]
    : [r],
);

/**
 * Fills every path parameter with a name that exists nowhere (and is not a valid number or
 * action), and sends a JSON string as body, which no body schema accepts: a permitted call
 * then ends in 400 or 404 before any engine work, while the role check comes first.
 */
const FAKE = 'berth-roles-walk-none';
const urlOf = (def: RouteDef) =>
  contract.fillPath(def.path, Object.fromEntries([...def.path.matchAll(/\{(\w+)\}/g)].map((m) => [m[1]!, FAKE])));

interface Actor {
  role: Role;
  email: string;
  password: string;
  cookie: TestClient;
  key: TestClient;
}

async function makeActor(role: Role): Promise<Actor> {
  const email = `${role}@berth.test`;
  const password = `${role}-password-long`;
  const made = await t.client.post<User>('/api/users', { email, password, role, ...REAUTH });
  expect(made.status, made.text).toBe(200);
  expect(made.body).toMatchObject({ email, role, disabled: false, totp_enabled: false });
  const cookie = t.anon();
  await cookie.login(email, password);
  const newKey = await cookie.post<NewApiKey>('/api/auth/api/keys/new', {
    key_name: 'walk',
    current_password: password,
  });
  expect(newKey.status, newKey.text).toBe(200);
  const key = t.anon();
  key.bearer = newKey.body.token;
  return { role, email, password, cookie, key };
}

/**
 * One request as `client` (cookie with its CSRF header, or API key). The answer is read as a
 * stream: a permitted live stream (SSE: logs, stats, events) never ends, so its status is taken
 * and the stream dropped; any other answer is read whole.
 */
async function call(client: TestClient, def: RouteDef) {
  const hasBody = def.method !== 'GET' && def.method !== 'DELETE';
  const headers: Record<string, string> = hasBody ? { 'content-type': 'application/json' } : {};
  if (client.bearer) headers.authorization = `Bearer ${client.bearer}`;
  else {
    headers.cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    headers['x-csrf-token'] = client.cookies.get('csrf_access_token') ?? '';
  }
  const res = await t.app.inject({
    method: def.method,
    url: urlOf(def),
    headers,
    payloadAsStream: true,
    ...(hasBody ? { payload: JSON.stringify('roles-walk') } : {}),
  });
  const stream = res.stream();
  if (String(res.headers['content-type'] ?? '').startsWith('text/event-stream')) {
    stream.destroy();
    return { status: res.statusCode, text: '', body: {} as ApiError };
  }
  let text = '';
  for await (const chunk of stream) text += String(chunk);
  let body = {} as ApiError;
  try {
    body = JSON.parse(text) as ApiError;
  } catch {
    // a download (zip, export) rather than JSON; only the status matters then
  }
  return { status: res.statusCode, text, body };
}

describe('roles', () => {
  it('every contract route is open or names a role', () => {
    expect(CONTRACT.length).toBeGreaterThan(50);
    expect(ROUTES.length).toBeGreaterThan(CONTRACT.length + 30);
    for (const { name, def } of CONTRACT)
      expect(def.open === true || contract.ROLES.includes(def.role as Role), name).toBe(true);
  });

  it('walks the whole route table as a viewer and an operator, by cookie and by API key', async () => {
    const refused: string[] = [];
    for (const actor of actors) {
      for (const via of ['cookie', 'key'] as const) {
        for (const { name, def } of ROUTES) {
          if (def.open) continue;
          // Signing out ends the cookie's session: use a session of its own.
          let client = actor[via];
          if (def === contract.authApi.logout && via === 'cookie') {
            client = t.anon();
            await client.login(actor.email, actor.password);
          }
          const res = await call(client, def);
          const what = `${actor.role} by ${via}: ${def.method} ${def.path} (${name}) → ${res.status} ${res.text.slice(0, 200)}`;
          if (roleAllows(actor.role, def.role!)) {
            expect(res.status, what).not.toBe(403);
            expect(res.status, what).not.toBe(401);
          } else {
            expect(res.status, what).toBe(403);
            expect(res.body.code, what).toBe('forbidden');
            expect(res.body.detail, what).toContain(`needs the ${def.role} role`);
            refused.push(`${actor.role}:${via}:${name}`);
          }
        }
      }
    }
    // The walk did refuse something to each: viewers the operator routes, operators the admin ones.
    expect(refused).toContain('viewer:key:deployApi.deploy');
    expect(refused).toContain('viewer:cookie:deployApi.deploy@env');
    expect(refused).toContain('operator:key:pruneApi.prune@env');
    expect(refused).toContain('operator:cookie:usersApi.list');
    expect(refused).not.toContain('operator:cookie:deployApi.deploy');
  });

  it('an /api route that declares no role is refused to everyone, admins too; the API reference is for all', async () => {
    // Registered without the contract's route(), so it carries no role: deny by default.
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'berth-roles-'));
    const { app } = await buildApp(
      loadConfig({
        DATA_DIR: dataDir,
        ADMIN_EMAIL: TEST_ADMIN.username,
        ADMIN_PASSWORD: TEST_ADMIN.password,
        LOG_LEVEL: 'silent',
        DOCKER_HOST: process.env.DOCKER_HOST ?? '',
      }),
    );
    try {
      app.get('/api/roles-walk-undeclared', () => ({ ok: true }));
      await app.ready();
      const admin = new TestClient(app);
      await admin.login();
      const res = await admin.get<ApiError>('/api/roles-walk-undeclared');
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('forbidden');
    } finally {
      await app.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
    expect((await actors[0]!.key.get('/api/docs/json')).status).toBe(200);
  });
});

describe('environment values', () => {
  const secret = 'roles-secret-value';
  const container = projectName('roles-env');
  const project = projectName('roles-env');
  beforeAll(async () => {
    // Created, never started: inspect is all the test needs.
    dockerCli([
      'create',
      '--name',
      container,
      '--label',
      'berth.test=1',
      '-e',
      `FOO=${secret}`,
      testEngine().image,
      'true',
    ]);
    const content = `# roles test\nx-env: &shared\n  ANCHORED: ${secret}-anchored\nservices:\n  web:\n    image: ${testEngine().image}\n    environment:\n      <<: *shared\n      INLINE: ${secret}-map\n  job:\n    image: ${testEngine().image}\n    environment:\n      - LISTED=${secret}-list\n      - FROM_SHELL\n`;
    const saved = await t.client.post('/api/compose/', { name: project, content });
    expect(saved.status, saved.text).toBe(200);
  });
  afterAll(() => {
    tryDockerCli(['rm', '-f', container]);
  });
  const reads = (client: TestClient) =>
    Promise.all([
      client.get(`/api/apps/${container}`),
      client.get('/api/compose/'),
      client.get(`/api/compose/${project}`),
      client.get(`/api/resources/images/${encodeURIComponent(testEngine().image)}`),
    ] as const);

  it('a viewer reads the names with every value masked; an operator reads the values', async () => {
    const [app, list, detail, image] = await reads(actors[0]!.key);
    for (const res of [app, list, detail, image]) expect(res.status, res.text).toBe(200);
    const apps = await actors[0]!.key.get('/api/apps/');
    for (const res of [app, list, detail, apps]) expect(res.text).not.toContain(secret);
    const masked = contract.ENV_VALUE_MASK;
    expect((app.body as contract.App).Config.Env).toContain(`FOO=${masked}`);
    const file = (detail.body as contract.ProjectDetail).content;
    expect(file).not.toContain('# roles test'); // comments are dropped: they hold old values as often as not
    expect(file).toContain(`LISTED=${masked}`);
    expect(file).toContain('- FROM_SHELL');
    expect((detail.body as contract.ProjectDetail).services.web?.environment).toEqual({
      ANCHORED: masked,
      INLINE: masked,
    });
    // The image's own ENV (PATH) is masked too: one rule, no guess at which values are secret.
    expect((image.body as contract.ImageDetail).ContainerConfig.Env?.every((e) => e.endsWith(`=${masked}`))).toBe(true);

    const [opApp, opList, opDetail, opImage] = await reads(actors[1]!.cookie);
    expect((opApp.body as contract.App).Config.Env).toContain(`FOO=${secret}`);
    expect(opList.text).toContain(`${secret}-map`);
    expect(opDetail.text).toContain(`${secret}-anchored`);
    expect(opDetail.text).toContain(`${secret}-list`);
    expect(opImage.text).not.toContain(masked);
  });

  it("masks the .env's values in a project's plan and action stream for a viewer (issue 38 #9)", async () => {
    const tag = `tag${Date.now().toString(16)}envsecret`;
    const name = projectName('roles-plan');
    const content = `services:\n  web:\n    image: 127.0.0.1:5000/berth-absent:\${TAG}\n    labels:\n      berth.test: "1"\n`;
    expect((await t.client.post('/api/compose/', { name, content })).status).toBe(200);
    expect((await t.client.request('PUT', `/api/compose/${name}/env`, { content: `TAG=${tag}\n` })).status).toBe(200);
    const viewer = actors[0]!.cookie;
    const plan = await viewer.get<contract.ProjectPlan>(`/api/compose/${name}/plan`);
    expect(plan.status, plan.text).toBe(200);
    expect(plan.text).not.toContain(tag);
    expect(plan.body.services[0]!.image).toBe(`127.0.0.1:5000/berth-absent:${contract.ENV_VALUE_MASK}`);
    expect((await t.client.get(`/api/compose/${name}/plan`)).text).toContain(tag);

    // The pull fails on the local registry, after naming the interpolated image.
    await t.client.post(`/api/compose/${name}/actions/pull`);
    const cookie = [...viewer.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    if (!t.app.server.listening) await t.app.listen({ host: '127.0.0.1', port: 0 });
    const base = `http://127.0.0.1:${(t.app.server.address() as import('node:net').AddressInfo).port}`;
    const controller = new AbortController();
    const res = await fetch(`${base}/api/compose/${name}/actions/stream`, {
      headers: { cookie },
      signal: controller.signal,
    });
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    while (!/event: state[^]*?\n\n/.test(text)) text += (await reader.read()).value ?? '';
    controller.abort();
    // The replayed state holds the last action's output: the image, its tag masked.
    expect(text).toContain('berth-absent');
    expect(text).not.toContain(tag);
    expect(text).toContain(contract.ENV_VALUE_MASK);
  });
});

describe('users', () => {
  const admin = () => t.client;

  it('the first-start admin is an admin; a new user signs in with their role', async () => {
    const list = await admin().get<User[]>('/api/users');
    expect(list.body.find((u) => u.email === TEST_ADMIN.username)?.role).toBe('admin');
    const status = await actorsStatus('viewer');
    expect(status).toMatchObject({ signedIn: true, role: 'viewer' });
  });

  it('a role change applies at once to sessions and API keys', async () => {
    const made = await admin().post<User>('/api/users', {
      email: 'promote@berth.test',
      password: 'promote-password',
      role: 'viewer',
      ...REAUTH,
    });
    const c = t.anon();
    await c.login('promote@berth.test', 'promote-password');
    const key = t.anon();
    key.bearer = (
      await c.post<NewApiKey>('/api/auth/api/keys/new', { key_name: 'k', current_password: 'promote-password' })
    ).body.token;
    expect((await key.post('/api/apps/deploy', {})).status).toBe(403);
    expect((await admin().request('PATCH', `/api/users/${made.body.id}`, { role: 'operator', ...REAUTH })).status).toBe(
      200,
    );
    expect((await key.post('/api/apps/deploy', {})).status).toBe(400);
    expect((await c.post('/api/apps/deploy', {})).status).toBe(400);
  });

  it('disabling ends the sessions and suspends the keys; enabling lets the user sign in again', async () => {
    const made = await admin().post<User>('/api/users', {
      email: 'off@berth.test',
      password: 'off-password',
      role: 'operator',
      ...REAUTH,
    });
    const c = t.anon();
    await c.login('off@berth.test', 'off-password');
    const key = t.anon();
    key.bearer = (
      await c.post<NewApiKey>('/api/auth/api/keys/new', { key_name: 'k', current_password: 'off-password' })
    ).body.token;
    const off = await admin().request<User>('PATCH', `/api/users/${made.body.id}`, { disabled: true, ...REAUTH });
    expect(off.body.disabled).toBe(true);
    expect((await c.get('/api/apps/')).status).toBe(401);
    expect((await key.get('/api/apps/')).status).toBe(401);
    const login = await t
      .anon()
      .post<ApiError>('/api/auth/login', { username: 'off@berth.test', password: 'off-password' });
    expect(login.status).toBe(401);
    expect(login.body.detail).toContain('disabled');
    await admin().request('PATCH', `/api/users/${made.body.id}`, { disabled: false, ...REAUTH });
    expect((await key.get('/api/apps/')).status).toBe(200);
    await t.anon().login('off@berth.test', 'off-password');
  });

  it('a password reset ends the sessions and revokes the keys', async () => {
    const made = await admin().post<User>('/api/users', {
      email: 'reset@berth.test',
      password: 'reset-password',
      role: 'viewer',
      ...REAUTH,
    });
    const c = t.anon();
    await c.login('reset@berth.test', 'reset-password');
    const key = t.anon();
    key.bearer = (
      await c.post<NewApiKey>('/api/auth/api/keys/new', { key_name: 'k', current_password: 'reset-password' })
    ).body.token;
    expect(
      (await admin().request('PATCH', `/api/users/${made.body.id}`, { password: 'brand-new-password', ...REAUTH }))
        .status,
    ).toBe(200);
    expect((await c.get('/api/apps/')).status).toBe(401);
    expect((await key.get('/api/apps/')).status).toBe(401);
    await t.anon().login('reset@berth.test', 'brand-new-password');
  });

  it('the last enabled admin can be neither disabled nor deleted; another admin can', async () => {
    const me = (await admin().get<User[]>('/api/users')).body.find((u) => u.email === TEST_ADMIN.username)!;
    const res = await admin().request<ApiError>('PATCH', `/api/users/${me.id}`, { disabled: true, ...REAUTH });
    expect(res.status).toBe(409);
    expect(res.body.detail).toContain('at least one enabled admin');
    expect((await admin().request<ApiError>('DELETE', `/api/users/${me.id}`, REAUTH)).status).toBe(409);
    expect((await admin().get<User[]>('/api/users')).body.find((u) => u.id === me.id)).toMatchObject({
      role: 'admin',
      disabled: false,
    });
    const other = await admin().post<User>('/api/users', {
      email: 'second-admin@berth.test',
      password: 'second-admin-pw',
      role: 'admin',
      ...REAUTH,
    });
    expect((await admin().request('DELETE', `/api/users/${other.body.id}`, REAUTH)).status).toBe(200);
    expect((await admin().get<User[]>('/api/users')).body.some((u) => u.id === other.body.id)).toBe(false);
  });

  it("account changes need the acting admin's password, never come from an API key, and never touch one's own password or role (hardening II #12)", async () => {
    const before = (await admin().get<User[]>('/api/users')).body;
    const me = before.find((u) => u.email === TEST_ADMIN.username)!;
    const victim = before.find((u) => u.email === 'viewer@berth.test')!;
    const key = t.anon();
    key.bearer = (await admin().post<NewApiKey>('/api/auth/api/keys/new', { key_name: 'users', ...REAUTH })).body.token;
    const minted = { email: 'minted@berth.test', password: 'minted-admin-pw', role: 'admin' };
    const refusals: [TestClient, string, string, unknown, string][] = [
      [key, 'POST', '/api/users', { ...minted, ...REAUTH }, 'forbidden'],
      [key, 'PATCH', `/api/users/${victim.id}`, { role: 'admin', ...REAUTH }, 'forbidden'],
      [key, 'PATCH', `/api/users/${victim.id}`, { disabled: true, ...REAUTH }, 'forbidden'],
      [key, 'DELETE', `/api/users/${victim.id}`, REAUTH, 'forbidden'],
      [admin(), 'POST', '/api/users', minted, 'reauth_failed'],
      [admin(), 'POST', '/api/users', { ...minted, current_password: 'not-the-password' }, 'reauth_failed'],
      [admin(), 'PATCH', `/api/users/${victim.id}`, { password: 'taken-over-pw' }, 'reauth_failed'],
      [admin(), 'DELETE', `/api/users/${victim.id}`, undefined, 'reauth_failed'],
      [admin(), 'PATCH', `/api/users/${me.id}`, { password: 'locked-out-pw', ...REAUTH }, 'forbidden'],
      [admin(), 'PATCH', `/api/users/${me.id}`, { role: 'viewer', ...REAUTH }, 'forbidden'],
      [key, 'PATCH', `/api/users/${me.id}`, { password: 'locked-out-pw', ...REAUTH }, 'forbidden'],
    ];
    for (const [client, method, url, body, code] of refusals) {
      const res = await client.request<ApiError>(method, url, body);
      expect(res.status, `${method} ${url} ${res.text}`).toBe(403);
      expect(res.body.code).toBe(code);
    }
    expect((await admin().get<User[]>('/api/users')).body).toEqual(before);
    await t.anon().login(TEST_ADMIN.username, TEST_ADMIN.password);
    await actorsStatus('viewer');
  });

  it('refuses a taken email, a weak password and an unknown role, changing nothing', async () => {
    const before = (await admin().get<User[]>('/api/users')).body.length;
    expect(
      (
        await admin().post<ApiError>('/api/users', {
          email: TEST_ADMIN.username.toUpperCase(),
          password: 'long-enough-pw',
          role: 'viewer',
          ...REAUTH,
        })
      ).status,
    ).toBe(409);
    expect(
      (
        await admin().post<ApiError>('/api/users', {
          email: 'weak@berth.test',
          password: 'short',
          role: 'viewer',
          ...REAUTH,
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await admin().post<ApiError>('/api/users', {
          email: 'root@berth.test',
          password: 'long-enough-pw',
          role: 'root',
          ...REAUTH,
        })
      ).status,
    ).toBe(400);
    expect((await admin().request<ApiError>('PATCH', '/api/users/999999', { role: 'viewer', ...REAUTH })).status).toBe(
      404,
    );
    expect((await admin().get<User[]>('/api/users')).body.length).toBe(before);
  });
});

async function actorsStatus(role: Role) {
  const c = t.anon();
  await c.login(`${role}@berth.test`, `${role}-password-long`);
  return (await c.get('/api/auth/status')).body;
}
