import { randomBytes } from 'node:crypto';
import * as contract from '@berth/contract';
import type { AuditEntry, NewApiKey, RouteDef } from '@berth/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyBaseLogger } from 'fastify';
import { createTestApp, REAUTH, TEST_ADMIN, type TestApp } from './helpers/app';
import { migrate, openSqlite } from '../src/db/database';
import { AuditRepo } from '../src/db/audit-repo';
import { AuditService, REFUSED_ROUTE } from '../src/services/audit/audit';
import { StorageStatus } from '../src/services/storage/storage-status';

const SECRET = `s3cret-${randomBytes(8).toString('hex')}`;
const KEY_NAME = `audit-walker-${randomBytes(3).toString('hex')}`;
/** Every field name a secret might travel in; the bodies fail validation, so nothing is changed. */
const SECRET_BODY = {
  password: SECRET,
  current_password: SECRET,
  token: SECRET,
  secret: SECRET,
  env: [{ name: 'PASSWORD', value: SECRET }],
  content: SECRET,
};

/** Every route of the contract: the *Api objects of @berth/contract. */
function contractRoutes(): [string, RouteDef][] {
  return Object.entries(contract)
    .filter(([k, v]) => k.endsWith('Api') && typeof v === 'object' && v !== null)
    .flatMap(([k, api]) =>
      Object.entries(api as Record<string, RouteDef>).map(([n, def]) => [`${k}.${n}`, def] as [string, RouteDef]),
    );
}

const mutating = (def: RouteDef) =>
  def.audited === true || [def.method, ...(def.alsoMethods ?? [])].some((m) => m !== 'GET');

let t: TestApp;
let bearer: string;
const fresh = () => `zz-audit-${randomBytes(4).toString('hex')}`;
const auditRows = () => t.services.audit.list({ limit: 10000 });

beforeAll(async () => {
  t = await createTestApp();
  bearer = (await t.client.post<NewApiKey>('/api/auth/api/keys/new', { key_name: KEY_NAME, ...REAUTH })).body.token;
});
afterAll(async () => {
  await t?.close();
});

describe('audit log', () => {
  it('records every mutating contract route once, with its user and target, and no secret sent with it', async () => {
    const routes = contractRoutes().filter(([, def]) => mutating(def));
    expect(routes.length).toBeGreaterThan(20);
    for (const [label, def] of routes) {
      for (const method of new Set([def.method, ...(def.alsoMethods ?? [])])) {
        const params: Record<string, string> = {};
        const path = def.path.replace(/\{(\w+)\}/g, (_, k: string) => (params[k] = fresh()));
        const name = fresh();
        const before = auditRows().length;
        const body = method === 'GET' || method === 'DELETE' ? undefined : { ...SECRET_BODY, name, username: name };
        const res = await t
          .anon()
          .request(method, `${path}?token=${SECRET}`, body, { authorization: `Bearer ${bearer}` });
        const rows = auditRows();
        const what = `${method} ${label} (${res.status})`;
        // An open route refusing someone not signed in is only counted (issue 38 #3), unless it is a sign-in that reached the password check.
        if (def.open && res.status >= 400 && !(def.path === '/api/auth/login' && res.status === 401)) {
          expect(rows.length - before, what).toBe(0);
          continue;
        }
        expect(rows.length - before, what).toBe(1);
        const entry = rows[0]!;
        expect(entry.status, what).toBe(res.status);
        expect(entry.method, what).toBe(method);
        expect(entry.route, what).toBe(def.path);
        const values = Object.values(params);
        if (values.length) expect(entry.target?.split('/').sort(), what).toEqual(values.sort());
        else if (body) expect(entry.target, what).toBe(name);
        if (def.open) expect(entry.user, what).toBe(def.path === '/api/auth/login' ? 'unknown user' : null);
        else expect(entry.user, what).toBe(`${TEST_ADMIN.username} (key ${KEY_NAME})`);
      }
    }
    const all = JSON.stringify(auditRows());
    expect(all).not.toContain(SECRET);
    const csv = await t.client.get('/api/audit/export?format=csv');
    expect(csv.status).toBe(200);
    expect(csv.text).not.toContain(SECRET);
  });

  it('records a call that fails as not found, once, and reads nothing for plain reads', async () => {
    const name = fresh();
    const before = auditRows().length;
    expect((await t.client.post(`/api/apps/actions/${name}/start`)).status).toBe(404);
    expect((await t.client.get('/api/apps/')).status).toBe(200);
    expect((await t.client.get('/api/audit')).status).toBe(200);
    const rows = auditRows();
    expect(rows.length - before).toBe(1);
    expect(rows[0]).toMatchObject({
      user: TEST_ADMIN.username,
      method: 'POST',
      route: '/api/apps/actions/{name}/{action}',
      status: 404,
      target: `${name}/start`,
    });

    expect((await t.client.post(`/api/environments/local/apps/actions/${name}/stop`)).status).toBe(404);
    expect(auditRows()[0]).toMatchObject({
      route: '/api/environments/{env}/apps/actions/{name}/{action}',
      target: `${name}/stop`,
      summary: expect.stringContaining('(environment local)'),
    });
  });

  it('filters the log and exports it as CSV and JSON; nothing can change or delete an entry', async () => {
    const name = fresh();
    await t.client.delete(`/api/resources/volumes/${name}`);
    const found = await t.client.get<AuditEntry[]>(`/api/audit?target=${name}&user=admin&action=DELETE`);
    expect(found.status).toBe(200);
    expect(found.body).toHaveLength(1);
    expect(found.body[0]).toMatchObject({ target: name, method: 'DELETE', route: '/api/resources/volumes/{name}' });
    expect((await t.client.get<AuditEntry[]>(`/api/audit?target=${name}&user=nobody-like-this`)).body).toHaveLength(0);
    expect(
      (
        await t.client.get<AuditEntry[]>(
          `/api/audit?target=${name}&until=${encodeURIComponent(new Date(Date.now() - 3600_000).toISOString())}`,
        )
      ).body,
    ).toHaveLength(0);
    expect((await t.client.get('/api/audit?since=yesterday')).status).toBe(400);

    const json = await t.client.get<AuditEntry[]>(`/api/audit/export?format=json&target=${name}`);
    expect(json.headers['content-disposition']).toMatch(/attachment; filename="berth-audit-.*\.json"/);
    expect(json.body).toEqual(found.body);
    const csv = await t.client.get(`/api/audit/export?format=csv&target=${name}`);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    expect(csv.text.split('\r\n')[0]).toBe('id,time,user,client,method,route,target,status,summary');
    expect(csv.text).toContain(`,DELETE,/api/resources/volumes/{name},${name},`);

    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
      expect([401, 404, 405]).toContain((await t.client.request(method, '/api/audit', {})).status);
    }
    expect((await t.anon().get('/api/audit')).status).toBe(401);
  });
});

describe('audit log under a flood (issue 38 #3)', () => {
  it('counts refused calls of nobody signed in as one row per client and minute, never one per body', async () => {
    const before = auditRows().length;
    const flooder = t.anon('10.38.3.1');
    const calls: Promise<{ status: number }>[] = [];
    for (let i = 0; i < 100; i++) {
      calls.push(flooder.post(`/api/apps/actions/flood-${i}/start`));
      // A body that does not parse, at the open sign-in route.
      calls.push(
        flooder.request('POST', '/api/auth/login', '{"username": "hunter2', { 'content-type': 'application/json' }),
      );
      calls.push(flooder.delete(`/api/resources/volumes/flood-${i}`));
    }
    const statuses = (await Promise.all(calls)).map((r) => r.status);
    expect(statuses.every((s) => s >= 400)).toBe(true);
    t.services.audit.flushRefused();
    const rows = auditRows().slice(0, auditRows().length - before);
    const mine = rows.filter((r) => r.client === '10.38.3.1');
    // The flood may straddle a minute: at most two rows, and nothing of what was sent.
    expect(mine.length).toBeGreaterThanOrEqual(1);
    expect(mine.length).toBeLessThanOrEqual(2);
    expect(mine.every((r) => r.route === REFUSED_ROUTE && r.user === null)).toBe(true);
    expect(mine.reduce((n, r) => n + Number(/^(\d+) refused/.exec(r.summary)?.[1]), 0)).toBe(300);
    expect(JSON.stringify(rows)).not.toContain('hunter2');
  });

  it("keeps a failed sign-in's name only when it names an account", async () => {
    const typedPassword = `Tr0ub4dor-${randomBytes(4).toString('hex')}`;
    expect((await t.anon('10.38.3.2').post('/api/auth/login', { username: typedPassword, password: 'x' })).status).toBe(
      401,
    );
    const upper = TEST_ADMIN.username.toUpperCase();
    expect((await t.anon('10.38.3.3').post('/api/auth/login', { username: upper, password: 'wrong' })).status).toBe(
      401,
    );
    const rows = auditRows().filter((r) => r.route === '/api/auth/login');
    expect(rows.find((r) => r.client === '10.38.3.2')).toMatchObject({ user: 'unknown user', status: 401 });
    expect(rows.find((r) => r.client === '10.38.3.3')).toMatchObject({ user: TEST_ADMIN.username, status: 401 });
    expect(JSON.stringify(auditRows())).not.toContain(typedPassword);
  });

  it('keeps at most AUDIT_MAX_ROWS entries, dropping the oldest first and saying so in the log', () => {
    const db = openSqlite(':memory:');
    migrate(db);
    const warnings: string[] = [];
    const log = { warn: (_o: unknown, msg: string) => warnings.push(msg), error: () => {} };
    const service = new AuditService(
      new AuditRepo(db),
      { retentionMs: 86_400_000, maxRows: 100 },
      log as unknown as FastifyBaseLogger,
      new StorageStatus(t.dataDir),
    );
    const entry = { user: 'u', client: 'c', method: 'POST', route: '/api/x', status: 200, summary: 's' };
    for (let i = 0; i < 250; i++) {
      service.record({ ...entry, target: `t${i}` });
      expect(service.list({ limit: 10000 }).length).toBeLessThanOrEqual(100);
    }
    const kept = service.list({ limit: 10000 });
    expect(kept[0]!.target).toBe('t249');
    expect(kept.map((e) => Number(e.target!.slice(1))).every((n) => n >= 250 - 100)).toBe(true);
    expect(warnings.some((w) => /AUDIT_MAX_ROWS \(100\): dropped its \d+ oldest entries/.test(w))).toBe(true);
    service.close();
    db.close();
  });
});
