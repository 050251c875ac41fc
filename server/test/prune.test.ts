import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiError, PrunePreview, PruneResult } from '@berth/contract';
import { createTestApp, type TestApp } from './helpers/app';
import { dockerCli, requireHarnessEngine } from './helpers/engine';
import { buildImage, cleanup, exists, uniqueName } from './images-fixtures';

const BASE = '/api/settings/prune/';
const KB64 = 64 * 1024;

/**
 * Prune is destructive, so it runs only on the harness's own engine. Each prune is narrowed to
 * this run's label, so parallel work on the same engine is left alone.
 */
describe('prune', () => {
  const engine = requireHarnessEngine();
  const mark = `berth.t.prune=${randomBytes(4).toString('hex')}`;
  const [markKey, markValue] = mark.split('=') as [string, string];
  const query = `?label=${encodeURIComponent(mark)}`;
  let t: TestApp;
  const made = { image: [] as string[], container: [] as string[], volume: [] as string[], network: [] as string[] };

  /** The preview of one kind under this run's label: names and sizes by name. */
  const preview = async (resource: string) => {
    const res = await t.client.get<PrunePreview>(`${BASE}${resource}/preview${query}`);
    expect(res.status).toBe(200);
    return { body: res.body, sizes: new Map(res.body.items.map((i) => [i.name, i.size])) };
  };

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    cleanup('container', ...made.container);
    cleanup('volume', ...made.volume);
    cleanup('network', ...made.network);
    cleanup('image', ...made.image);
    await t?.close();
  });

  it('removes stopped containers and reports the space they took', async () => {
    const stopped = uniqueName('prune-c');
    const running = uniqueName('prune-c');
    made.container.push(stopped, running);
    dockerCli([
      'run',
      '--name',
      stopped,
      '--label',
      'berth.test=1',
      '--label',
      mark,
      engine.image,
      'dd',
      'if=/dev/zero',
      'of=/f',
      'bs=1k',
      'count=64',
    ]);
    dockerCli([
      'run',
      '-d',
      '--name',
      running,
      '--label',
      'berth.test=1',
      '--label',
      mark,
      engine.image,
      'sleep',
      '300',
    ]);
    const stoppedId = dockerCli(['inspect', '--format', '{{.Id}}', stopped]).trim();

    const before = await preview('containers');
    expect([...before.sizes.keys()]).toEqual([stopped]);
    expect(before.body.items[0]?.id).toBe(stoppedId);
    expect(before.body.SpaceReclaimable).toBeGreaterThanOrEqual(KB64);
    expect(exists('container', stopped)).toBe(true);

    const res = await t.client.post<PruneResult>(`${BASE}containers${query}`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)[0]).toBe('ContainersDeleted');
    expect(res.body.ContainersDeleted).toEqual([stoppedId]);
    expect(res.body.SpaceReclaimed).toBeGreaterThanOrEqual(KB64);
    expect(exists('container', stopped)).toBe(false);
    expect(exists('container', running)).toBe(true);
    expect((await preview('containers')).body).toEqual({ items: [], SpaceReclaimable: 0 });
  });

  it('removes unused volumes, named ones included, and keeps used ones', async () => {
    const unused = uniqueName('prune-v');
    const used = uniqueName('prune-v');
    const user = uniqueName('prune-c');
    made.volume.push(unused, used);
    made.container.push(user);
    for (const v of [unused, used]) dockerCli(['volume', 'create', '--label', 'berth.test=1', '--label', mark, v]);
    dockerCli([
      'run',
      '--rm',
      '-v',
      `${unused}:/d`,
      engine.image,
      'dd',
      'if=/dev/zero',
      'of=/d/f',
      'bs=1k',
      'count=64',
    ]);
    dockerCli(['create', '--name', user, '--label', 'berth.test=1', '-v', `${used}:/d`, engine.image]);

    const before = await preview('volumes');
    expect([...before.sizes.keys()]).toEqual([unused]);
    expect(before.sizes.get(unused)).toBeGreaterThanOrEqual(KB64);
    expect(before.body.SpaceReclaimable).toBe(before.sizes.get(unused));

    const res = await t.client.post<PruneResult>(`${BASE}volumes${query}`);
    expect(res.status).toBe(200);
    expect(res.body.VolumesDeleted).toEqual([unused]);
    expect(res.body.SpaceReclaimed).toBeGreaterThanOrEqual(KB64);
    expect(exists('volume', unused)).toBe(false);
    expect(exists('volume', used)).toBe(true);
  });

  it('removes unused networks and keeps ones a running container uses', async () => {
    const unused = uniqueName('prune-n');
    const used = uniqueName('prune-n');
    const user = uniqueName('prune-c');
    made.network.push(unused, used);
    made.container.push(user);
    for (const n of [unused, used]) dockerCli(['network', 'create', '--label', 'berth.test=1', '--label', mark, n]);
    dockerCli([
      'run',
      '-d',
      '--name',
      user,
      '--label',
      'berth.test=1',
      '--network',
      used,
      engine.image,
      'sleep',
      '300',
    ]);

    const before = await preview('networks');
    expect(before.body).toEqual({
      items: [expect.objectContaining({ name: unused, size: null })],
      SpaceReclaimable: 0,
    });
    expect(exists('network', unused)).toBe(true);

    const res = await t.client.post<PruneResult>(`${BASE}networks${query}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ NetworksDeleted: [unused], SpaceReclaimed: 0 });
    expect(exists('network', unused)).toBe(false);
    expect(exists('network', used)).toBe(true);
  });

  it('removes dangling images only, as GET too, and reports the space freed', async () => {
    const tag = `${uniqueName('prune-i')}:v1`;
    const dangling = buildImage(tag, { [markKey]: markValue }, 64);
    const current = buildImage(tag, { [markKey]: markValue });
    made.image.push(tag, dangling, current);
    expect(dangling).not.toBe(current);

    const before = await preview('images');
    expect(before.body.items.map((i) => i.id)).toEqual([dangling]);
    expect(before.body.SpaceReclaimable).toBeGreaterThanOrEqual(KB64);

    const res = await t.client.get<PruneResult>(`${BASE}images${query}`);
    expect(res.status).toBe(200);
    expect(res.body.ImagesDeleted).toContainEqual({ Deleted: dangling });
    expect(res.body.ImagesDeleted?.some((i) => i.Deleted === current)).toBe(false);
    expect(res.body.SpaceReclaimed).toBeGreaterThanOrEqual(KB64);
    expect(exists('image', dangling)).toBe(false);
    expect(exists('image', tag)).toBe(true);
  });

  it('prunes without a label too and always answers with a list', async () => {
    const res = await t.client.post<PruneResult>(`${BASE}images`);
    expect(res.status).toBe(200);
    expect(Array.isArray(res.body.ImagesDeleted)).toBe(true);
    expect(res.body.SpaceReclaimed).toBeTypeOf('number');
  });

  it('answers 400 for any other resource or a malformed label, and needs the CSRF header on GET', async () => {
    for (const path of ['builder', 'system', 'containers?label=a%20b', '__proto__', 'system/preview']) {
      const res = path.endsWith('preview')
        ? await t.client.get<ApiError>(`${BASE}${path}`)
        : await t.client.post<ApiError>(`${BASE}${path}`);
      expect(res.status, path).toBe(400);
      expect(res.body.code).toBe('validation_error');
    }
    const noCsrf = await t.client.get<ApiError>(`${BASE}containers${query}`, { 'x-csrf-token': '' });
    expect(noCsrf.status).toBe(401);
    expect(noCsrf.body.code).toBe('csrf_failed');
  });
});
