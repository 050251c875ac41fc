import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiError, Volume } from '@berth/contract';
import { createTestApp, type TestApp } from './helpers/app';
import { dockerCli, testEngine } from './helpers/engine';
import { cleanup, exists, uniqueName } from './images-fixtures';

const BASE = '/api/resources/volumes/';

describe('volumes', () => {
  let t: TestApp;
  const volumes: string[] = [];
  const containers: string[] = [];

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    cleanup('container', ...containers);
    cleanup('volume', ...volumes);
    await t?.close();
  });

  it('creates, shows and deletes a volume', async () => {
    const name = uniqueName('volumes');
    volumes.push(name);
    const created = await t.client.post<Volume[]>(BASE, { name });
    expect(created.status).toBe(200);
    expect(created.body.find((v) => v.Name === name)).toMatchObject({ Driver: 'local', Project: null, inUse: 0 });
    expect(exists('volume', name)).toBe(true);

    const one = await t.client.get<Volume>(`${BASE}${name}`);
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ Name: name, Driver: 'local', Scope: 'local', Labels: {}, inUse: 0 });
    expect(one.body.Mountpoint).toContain(name);
    expect(one.body.CreatedAt).toBeTruthy();

    const removed = await t.client.delete<Volume>(`${BASE}${name}`);
    expect(removed.status).toBe(200);
    expect(removed.body.Name).toBe(name);
    expect(exists('volume', name)).toBe(false);

    const gone = await t.client.get<ApiError>(`${BASE}${name}`);
    expect(gone.status).toBe(404);
    expect(gone.body.detail).toMatch(/no such volume/i);
  });

  it('lists the compose project and how many containers mount each volume', async () => {
    const name = uniqueName('volumes');
    const container = uniqueName('volumes-c');
    volumes.push(name);
    containers.push(container);
    dockerCli([
      'volume',
      'create',
      '--label',
      'berth.test=1',
      '--label',
      'com.docker.compose.project=berth-t-proj',
      name,
    ]);
    dockerCli(['create', '--name', container, '--label', 'berth.test=1', '-v', `${name}:/data`, testEngine().image]);
    const res = await t.client.get<Volume[]>(BASE);
    expect(res.body.find((v) => v.Name === name)).toMatchObject({ Project: 'berth-t-proj', inUse: 1 });
    // One volume names its containers, each with where it mounts it and whether it may write.
    const reader = uniqueName('volumes-r');
    containers.push(reader);
    dockerCli(['create', '--name', reader, '--label', 'berth.test=1', '-v', `${name}:/ro:ro`, testEngine().image]);
    const one = await t.client.get<Volume>(`${BASE}${name}`);
    expect(one.body.inUse).toBe(2);
    expect(one.body.usedBy?.sort((a, b) => a.destination.localeCompare(b.destination))).toEqual([
      { name: container, id: expect.any(String), state: 'created', destination: '/data', read_only: false },
      { name: reader, id: expect.any(String), state: 'created', destination: '/ro', read_only: true },
    ]);
    expect((await t.client.get<Volume[]>(BASE)).body.find((v) => v.Name === name)?.usedBy).toBeUndefined();
  });

  it('refuses to delete a volume a container uses, with the engine reason', async () => {
    const name = uniqueName('volumes');
    const container = uniqueName('volumes-c');
    volumes.push(name);
    containers.push(container);
    dockerCli(['volume', 'create', '--label', 'berth.test=1', name]);
    dockerCli(['create', '--name', container, '--label', 'berth.test=1', '-v', `${name}:/data`, testEngine().image]);
    const res = await t.client.delete<ApiError>(`${BASE}${name}`);
    expect(res.status).toBe(409);
    expect(res.body.detail).toMatch(/in use/);
    expect(exists('volume', name)).toBe(true);
  });

  it('refuses bad names, unknown fields and an existing name', async () => {
    for (const name of ['a', '-x', 'my vol', 'x/y', '../etc', '💥', 'v'.repeat(300), '']) {
      const res = await t.client.post<ApiError>(BASE, { name });
      expect(res.status, name).toBe(400);
      expect(res.body.code).toBe('validation_error');
    }
    const extra = await t.client.post<ApiError>(BASE, {
      name: uniqueName('volumes'),
      Driver: 'local',
      DriverOpts: { device: '/' },
    });
    expect(extra.status).toBe(400);
    expect(extra.body.detail).toMatch(/DriverOpts/);

    const name = uniqueName('volumes');
    volumes.push(name);
    dockerCli(['volume', 'create', '--label', 'berth.test=1', name]);
    const dup = await t.client.post<ApiError>(BASE, { name });
    expect(dup.status).toBe(409);
    expect(dup.body.detail).toMatch(/already exists/);
  });
});
