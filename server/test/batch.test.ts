import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiError, App, AuditEntry, BatchItemResult, Project, Volume } from '@berth/contract';
import { createTestApp, REAUTH, type TestApp } from './helpers/app';
import { dockerCli, testEngine } from './helpers/engine';
import { projectContainers, trackedProjects } from './helpers/compose-projects';
import { cleanup, exists, uniqueName } from './images-fixtures';
import { inspect } from './apps-fixtures';

type Batch<K extends string, T> = { results: BatchItemResult[] } & Record<K, T[]>;

const byName = (results: BatchItemResult[]) => Object.fromEntries(results.map((r) => [r.name, r]));

/** A labelled container that stops at once on SIGTERM (busybox sleep as PID 1 would ignore it). */
function runQuick(name: string): void {
  dockerCli([
    'run',
    '-d',
    '--name',
    name,
    '--label',
    'berth.test=1',
    '--stop-timeout',
    '2',
    testEngine().image,
    'sh',
    '-c',
    'trap "exit 0" TERM; while true; do sleep 0.2; done',
  ]);
}

describe('batch actions', () => {
  let t: TestApp;
  const containers: string[] = [];
  const volumes: string[] = [];
  const images: string[] = [];
  const projects = trackedProjects();

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    cleanup('container', ...containers);
    cleanup('volume', ...volumes);
    cleanup('image', ...images);
    projects.cleanup();
    await t?.close();
  });

  it('stops five running apps in one call, then starts four of them and reports the unknown fifth as not found', async () => {
    const names = Array.from({ length: 5 }, () => uniqueName('batch'));
    containers.push(...names);
    for (const n of names) runQuick(n);

    const stopped = await t.client.post<Batch<'apps', App>>('/api/apps/actions/batch', { action: 'stop', names });
    expect(stopped.status).toBe(200);
    expect(stopped.body.results).toHaveLength(5);
    expect(stopped.body.results.every((r) => r.ok && r.status === 200)).toBe(true);
    for (const n of names) expect(inspect<{ State: { Status: string } }>(n).State.Status).toBe('exited');
    // The answer carries the list as it is after the batch.
    for (const n of names) expect(stopped.body.apps.find((a) => a.name === n)?.State.Status).toBe('exited');

    const unknown = uniqueName('batch-missing');
    const started = await t.client.post<Batch<'apps', App>>('/api/apps/actions/batch', {
      action: 'start',
      names: [...names.slice(0, 4), unknown],
    });
    expect(started.status).toBe(200);
    const results = byName(started.body.results);
    expect(started.body.results.filter((r) => r.ok)).toHaveLength(4);
    expect(results[unknown]).toMatchObject({ ok: false, status: 404, code: 'not_found' });
    expect(results[unknown]?.detail).toBeTruthy();
    for (const n of names.slice(0, 4)) expect(inspect<{ State: { Status: string } }>(n).State.Status).toBe('running');
  });

  it('answers the same batch under the environment path, refuses an unknown action whole and a bad name per item', async () => {
    const scoped = await t.client.post<Batch<'apps', App>>('/api/environments/local/apps/actions/batch', {
      action: 'stop',
      names: ['no/such'],
    });
    expect(scoped.status).toBe(200);
    expect(scoped.body.results).toEqual([
      expect.objectContaining({ name: 'no/such', ok: false, status: 400, code: 'validation_error' }),
    ]);

    const bad = await t.client.post<ApiError>('/api/apps/actions/batch', { action: 'explode', names: ['x'] });
    expect(bad.status).toBe(400);
    expect(bad.body.detail).toMatch(/Unknown action/);
  });

  it('removes three volumes where one is in use: two go, the used one is refused with the app that holds it', async () => {
    const [a, b, used] = [uniqueName('batch-v'), uniqueName('batch-v'), uniqueName('batch-v')] as [
      string,
      string,
      string,
    ];
    const holder = uniqueName('batch-holder');
    volumes.push(a, b, used);
    containers.push(holder);
    for (const v of [a, b, used]) dockerCli(['volume', 'create', '--label', 'berth.test=1', v]);
    dockerCli(['create', '--name', holder, '--label', 'berth.test=1', '-v', `${used}:/data`, testEngine().image]);

    const res = await t.client.post<Batch<'volumes', Volume>>('/api/resources/volumes/batch', {
      action: 'remove',
      names: [a, b, used],
    });
    expect(res.status).toBe(200);
    const results = byName(res.body.results);
    expect(results[a]).toMatchObject({ ok: true, status: 200 });
    expect(results[b]).toMatchObject({ ok: true, status: 200 });
    expect(results[used]).toMatchObject({ ok: false, status: 409, code: 'conflict' });
    expect(results[used]?.detail).toContain(holder);
    expect([exists('volume', a), exists('volume', b), exists('volume', used)]).toEqual([false, false, true]);
    expect(res.body.volumes.some((v) => v.Name === used)).toBe(true);

    // Every item has its own audit entry, with its own outcome.
    const audit = await t.client.get<AuditEntry[]>('/api/audit?limit=1000');
    const entries = audit.body.filter((e) => e.route === '/api/resources/volumes/batch');
    expect(Object.fromEntries(entries.map((e) => [e.target, e.status]))).toEqual({ [a]: 200, [b]: 200, [used]: 409 });
  });

  it('forces the removal of images in use only for an admin', async () => {
    const made = await t.client.post('/api/users', {
      email: 'batch-operator@berth.test',
      password: 'operator-password-long',
      role: 'operator',
      ...REAUTH,
    });
    expect(made.status, made.text).toBe(200);
    const operator = t.anon();
    await operator.login('batch-operator@berth.test', 'operator-password-long');
    const refused = await operator.post<ApiError>('/api/resources/images/batch', {
      action: 'remove',
      names: ['berth-t-none:1'],
      force: true,
    });
    expect([refused.status, refused.body.code]).toEqual([403, 'forbidden']);
    const unforced = await operator.post<Batch<'images', unknown>>('/api/resources/images/batch', {
      action: 'remove',
      names: ['berth-t-none:1'],
    });
    expect(unforced.status).toBe(200);
    expect(unforced.body.results[0]).toMatchObject({ ok: false, status: 404 });
  });

  it('removes image tags in a batch; GET /api/resources/images/batch still reads an image by that name', async () => {
    const tag = `${uniqueName('batch-img')}:one`;
    images.push(tag);
    dockerCli(['tag', testEngine().image, tag]);
    const res = await t.client.post<Batch<'images', unknown>>('/api/resources/images/batch', {
      action: 'remove',
      ids: [tag, 'berth-t-batch-absent:x'],
    });
    expect(res.status).toBe(200);
    expect(byName(res.body.results)).toMatchObject({
      [tag]: { ok: true },
      'berth-t-batch-absent:x': { ok: false, status: 404 },
    });
    expect(exists('image', tag)).toBe(false);
    // The shared test image only lost the extra tag.
    expect(exists('image', testEngine().image)).toBe(true);

    const read = await t.client.get<ApiError>('/api/resources/images/batch');
    expect(read.status).toBe(404);
    expect(read.body).toMatchObject({ code: 'not_found' });
    expect(read.body.detail).toMatch(/batch/);

    const neither = await t.client.post<ApiError>('/api/resources/images/batch', { action: 'remove' });
    expect(neither.status).toBe(400);
  });

  it('runs a compose action on several projects and reports an unknown one', async () => {
    const names = [projects.name('batch')];
    const content = `services:\n  web:\n    image: ${testEngine().image}\n    command: ["sleep", "3600"]\n    stop_signal: SIGKILL\n    labels:\n      berth.test: "1"\n`;
    for (const name of names) expect((await t.client.post('/api/compose/', { name, content })).status).toBe(200);

    const up = await t.client.post<Batch<'projects', Project>>('/api/compose/batch', {
      action: 'up',
      names: [...names, 'berth-t-batch-absent'],
    });
    expect(up.status).toBe(200);
    expect(byName(up.body.results)).toMatchObject({
      [names[0]!]: { ok: true },
      'berth-t-batch-absent': { ok: false, status: 404 },
    });
    for (const name of names) expect(projectContainers(name).map((c) => c.state)).toEqual(['running']);

    const del = await t.client.post<Batch<'projects', Project>>('/api/compose/batch', { action: 'delete', names });
    expect(del.body.results.every((r) => r.ok)).toBe(true);
    for (const name of names) expect(projectContainers(name)).toEqual([]);
  });
});
