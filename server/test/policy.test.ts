import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiError, AuditEntry, PolicyAnswer, TemplateDetail } from '@berth/contract';
import { createTestApp, REAUTH, TestClient, type TestApp } from './helpers/app';
import { testEngine, tryDockerCli } from './helpers/engine';
import { cleanupProject, projectContainers, projectName } from './helpers/compose-projects';
import { startCatalogueServer, type CatalogueServer } from './templates-fixtures';

/**
 * Issue 32: an operator may not make a container that reads DATA_DIR or reaches the engine, on
 * any path. Refusals are judged before the engine or CLI is asked for anything, so most cases
 * cost one request; one real container start per kind proves an allowed bind still works.
 */
let t: TestApp;
let operator: TestClient;
let keyFile: string;
let cat: CatalogueServer;
/** A host folder the admin allows, with a link in it that leads into DATA_DIR. */
let allowed: string;
/** The policy as an operator read it before the admin first changed it. */
let fresh: { status: number; body: PolicyAnswer };
const projects: string[] = [];
const image = () => testEngine().image;

async function asOperator(): Promise<TestClient> {
  const made = await t.client.post('/api/users', {
    email: 'policy-op@berth.test',
    password: 'operator-password-long',
    role: 'operator',
    ...REAUTH,
  });
  expect(made.status, made.text).toBe(200);
  const c = t.anon();
  await c.login('policy-op@berth.test', 'operator-password-long');
  return c;
}

const name = (feature: string) => {
  const n = projectName(feature);
  projects.push(n);
  return n;
};

const svc = (lines: string) => `services:\n  a:\n    image: ${image()}\n    command: [sleep, "600"]\n${lines}`;

function expectDenied(res: { status: number; body: unknown; text: string }, rule: string, words?: string): ApiError {
  const body = res.body as ApiError;
  expect([res.status, body.code], res.text).toEqual([403, 'policy_denied']);
  expect(body.fields?.map((f) => f.rule)).toContain(rule);
  if (words) expect(body.detail).toContain(words);
  return body;
}

beforeAll(async () => {
  t = await createTestApp({ TEMPLATE_FETCH_ALLOW_LOOPBACK: 'true' });
  operator = await asOperator();
  keyFile = path.join(t.dataDir, 'keys', 'secret.key');
  allowed = fs.mkdtempSync(path.join(os.tmpdir(), 'berth-policy-'));
  fs.mkdirSync(path.join(allowed, 'media'));
  fs.symlinkSync(t.dataDir, path.join(allowed, 'link'));
  cat = await startCatalogueServer();
  fresh = await operator.get<PolicyAnswer>('/api/environments/local/policy');
  const put = await t.client.request<PolicyAnswer>('PUT', '/api/environments/local/policy', {
    bind_allowlist: [allowed],
    cap_add_allowlist: ['CAP_NET_ADMIN'],
  });
  expect(put.status, put.text).toBe(200);
  expect(put.body).toMatchObject({ policy: { cap_add_allowlist: ['NET_ADMIN'] }, updated_by: 'admin@berth.test' });
});

afterAll(async () => {
  for (const p of projects) cleanupProject(p);
  tryDockerCli(['rm', '-f', 'berth-t-policy-form']);
  await cat?.close();
  await t?.close();
  fs.rmSync(allowed, { recursive: true, force: true });
});

describe('the policy of an environment', () => {
  it('starts safe, is readable by operators, changed only by admins, and the change is audited', async () => {
    expect(fresh.status).toBe(200);
    expect(fresh.body.policy).toMatchObject({ bind_mounts: 'allowlist', bind_allowlist: [], privileged: 'deny' });
    expect(fresh.body.always_refused.map((p) => p.path)).toEqual(
      expect.arrayContaining([t.dataDir, path.join(t.dataDir, 'keys'), '/etc', '/var/run/docker.sock']),
    );
    expect((await operator.request('PUT', '/api/environments/local/policy', { bind_mounts: 'allow' })).status).toBe(
      403,
    );
    expect((await t.client.get('/api/environments/nowhere/policy')).status).toBe(404);

    const again = await t.client.request('PUT', '/api/environments/local/policy', {
      bind_allowlist: [allowed],
      cap_add_allowlist: ['NET_ADMIN'],
    });
    expect(again.status).toBe(200);
    const audit = await t.client.get<AuditEntry[]>('/api/audit?limit=50');
    expect(audit.body.find((e) => e.route === '/api/environments/{env}/policy')).toMatchObject({
      method: 'PUT',
      status: 200,
      user: 'admin@berth.test',
    });
  });
});

describe('the attack of issue 32 (bind DATA_DIR, print the key) on every path, as an operator', () => {
  const bind = () => `    volumes: ["${t.dataDir}:/berth"]\n`;

  it.each([
    ['compose save', () => svc(bind())],
    ['a parent of DATA_DIR', () => svc(`    volumes: ["${path.dirname(t.dataDir)}:/up"]\n`)],
    ['long syntax', () => svc(`    volumes: [{type: bind, source: "${t.dataDir}", target: /b}]\n`)],
    ['a ${X:-default}', () => svc(`    volumes: ["\${NOPE:-${t.dataDir}}:/berth"]\n`)],
    ['a merge key', () => `x-b: &b\n  volumes: ["${t.dataDir}/keys:/k"]\n${svc('    <<: *b\n')}`],
    [
      'a volume whose driver binds',
      () =>
        `${svc('    volumes: ["v:/berth"]\n')}volumes:\n  v:\n    driver_opts: {type: none, o: bind, device: "${t.dataDir}"}\n`,
    ],
    ['a link into DATA_DIR', () => svc(`    volumes: ["${allowed}/link:/berth"]\n`)],
    ['the engine socket', () => svc('    volumes: ["/var/run/docker.sock:/var/run/docker.sock"]\n')],
    ['a relative path out of the project', () => svc('    volumes: ["../../keys:/k"]\n')],
  ])('refuses %s with 403 policy_denied and the line, saving nothing', async (_, content) => {
    const n = name('pol');
    const res = await operator.post<ApiError>('/api/compose/', { name: n, content: content() });
    const body = expectDenied(res, 'bind_mounts', 'no operator may mount');
    expect(body.fields?.[0]).toMatchObject({ line: expect.any(Number), column: expect.any(Number) });
    expect(body.detail).toMatch(/\(line \d+, column \d+\)/);
    expect((await t.client.get(`/api/compose/${n}`)).status).toBe(404);
    // The same file is an admin's to save.
    expect((await t.client.post('/api/compose/', { name: n, content: content() })).status).toBe(200);
  });

  it.each([
    ['privileged', svc('    privileged: true\n'), 'privileged'],
    ['pid: host', svc('    pid: host\n'), 'host_pid'],
    ['network_mode: host', svc('    network_mode: host\n'), 'host_network'],
    ['cap_add SYS_ADMIN', svc('    cap_add: [SYS_ADMIN]\n'), 'cap_add'],
    ['seccomp unconfined', svc('    security_opt: ["seccomp:unconfined"]\n'), 'security_opt'],
    ['a device', svc('    devices: ["/dev/null:/dev/x"]\n'), 'devices'],
    ['a path outside the allowlist', svc('    volumes: ["/srv:/srv"]\n'), 'bind_mounts'],
  ])('refuses %s by default, naming the rule', async (_, content, rule) => {
    expectDenied(
      await operator.post('/api/compose/', { name: name('pol'), content }),
      rule,
      'Settings → Environments → local → Policy',
    );
  });

  it('judges the .env on save and the file again before up, create and pull (a container may have rewritten it)', async () => {
    const n = name('polenv');
    const content = svc('    volumes: ["${SRC:-./data}:/data"]\n');
    expect((await operator.post('/api/compose/', { name: n, content })).status).toBe(200);
    const env = await operator.request<ApiError>('PUT', `/api/compose/${n}/env`, { content: `SRC=${t.dataDir}\n` });
    expectDenied(env, 'bind_mounts');
    expect(fs.existsSync(path.join(t.ctx.config.composeDir, n, '.env'))).toBe(false);

    fs.writeFileSync(path.join(t.ctx.config.composeDir, n, '.env'), `SRC=${t.dataDir}\n`);
    for (const action of ['up', 'create', 'pull'])
      expectDenied(await operator.post<ApiError>(`/api/compose/${n}/actions/${action}`), 'bind_mounts');
    expectDenied(await operator.post<ApiError>(`/api/compose/${n}/actions/up/a`), 'bind_mounts');
    const batch = await operator.post<{ results: { ok: boolean; code?: string }[] }>('/api/compose/batch', {
      action: 'up',
      names: [n],
    });
    expect(batch.body.results[0]).toMatchObject({ ok: false, code: 'policy_denied' });
    expect(projectContainers(n)).toEqual([]);
  });

  it('starts a project whose bind is inside the allowlist or its own folder (one real up)', async () => {
    const n = name('polok');
    const content = svc(`    volumes: ["${allowed}/media:/media", "./data:/data"]\n`);
    expect((await operator.post('/api/compose/', { name: n, content })).status).toBe(200);
    const up = await operator.post(`/api/compose/${n}/actions/up`);
    expect(up.status, up.text).toBe(200);
    expect(projectContainers(n).map((c) => c.state)).toEqual(['running']);
  });

  it('refuses the form, run → compose, a swarm service mount and a stack file; the admin may', async () => {
    const form = {
      name: 'berth-t-policy-form',
      image: image(),
      restart_policy: 'none',
      volumes: [{ bind: t.dataDir, container: '/berth' }],
    };
    const denied = expectDenied(await operator.post('/api/apps/deploy', form), 'bind_mounts');
    expect(denied.fields?.[0]?.field).toBe('volumes.0.bind');
    expectDenied(await operator.post('/api/apps/deploy', { ...form, volumes: [], privileged: true }), 'privileged');
    expectDenied(
      await operator.post('/api/compose/convert-run', {
        command: `docker run -v ${t.dataDir}:/b --privileged ${image()}`,
      }),
      'privileged',
    );
    expectDenied(
      await operator.post('/api/swarm/services', {
        name: 'berth-t-policy-svc',
        image: image(),
        mounts: [{ type: 'bind', source: t.dataDir, target: '/b', readOnly: false }],
      }),
      'bind_mounts',
    );
    expectDenied(
      await operator.post('/api/swarm/stacks', { name: 'polstack', content: svc(bind()) }),
      'bind_mounts',
      'no operator may mount',
    );
    // Issue 38 #4: a stack's configs file is judged like a project's, for everyone.
    const configs = await t.client.post<ApiError>('/api/swarm/stacks', {
      name: 'polstack',
      content: `${svc('')}configs:\n  k:\n    file: ${keyFile}\n`,
    });
    expect([configs.status, configs.body.code]).toEqual([400, 'validation_error']);
    expect(configs.body.detail).toContain('configs.k.file');

    // One real start: the form with an allowed path, as the operator.
    const ok = await operator.post('/api/apps/deploy', {
      ...form,
      volumes: [{ bind: `${allowed}/media`, container: '/media' }],
      command: ['sleep', '600'],
    });
    expect(ok.status, ok.text).toBe(200);
  });

  it('refuses a template whose values lead a bind into DATA_DIR, for a project and a stack', async () => {
    cat.routes.set('/repo/stack.yml', (_req, res) => res.end(svc('    volumes: ["${SRC}:/src"]\n')));
    cat.routes.set('/catalogue.json', (_req, res) =>
      res.end(
        JSON.stringify({
          version: '3',
          templates: [
            {
              type: 3,
              title: 'Policy stack',
              repository: { url: `${cat.base}/repo`, stackfile: 'stack.yml' },
              env: [{ name: 'SRC', default: './data' }],
            },
          ],
        }),
      ),
    );
    const tpl = await t.client.post<{ id: number }>('/api/templates/', {
      title: 'Policy',
      url: `${cat.base}/catalogue.json`,
    });
    expect(tpl.status, tpl.text).toBe(200);
    const [item] = (await t.client.get<TemplateDetail>(`/api/templates/${tpl.body.id}`)).body.items;
    const body = { item_id: item!.id, name: name('poltpl'), env: { SRC: t.dataDir } };
    expectDenied(await operator.post('/api/compose/from-template', body), 'bind_mounts');
    expectDenied(await operator.post('/api/swarm/stacks/from-template', { ...body, name: 'poltpl' }), 'bind_mounts');
    expect((await operator.post('/api/compose/from-template', { ...body, env: {} })).status).toBe(200);
  });
});

describe('the signing key', () => {
  it('lives in a 0700 keys folder', () => {
    expect(fs.statSync(path.dirname(keyFile)).mode & 0o777).toBe(0o700);
    expect(fs.existsSync(path.join(t.dataDir, 'secret.key'))).toBe(false);
  });
});
