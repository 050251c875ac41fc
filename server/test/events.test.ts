import { randomBytes } from 'node:crypto';
import type { EngineEventRecord } from '@berth/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventsRepo } from '../src/db/events-repo';
import { createTestApp, type TestApp } from './helpers/app';
import { dockerCli, removeContainersNamed, testEngine, tryDockerCli } from './helpers/engine';
import { cookieHeader, listen, SseReader, until } from './apps-fixtures';

const PREFIX = `berth-evt-${randomBytes(3).toString('hex')}`;
let t: TestApp;
let base: string;

const history = async (query: string) => {
  const res = await t.client.get<EngineEventRecord[]>(`/api/events?${query}`);
  expect(res.status, res.text).toBe(200);
  return res.body;
};

beforeAll(async () => {
  t = await createTestApp();
  base = await listen(t.app);
  await t.services.environments.get('local').events.whenConnected(10_000);
});
afterAll(async () => {
  removeContainersNamed(PREFIX);
  tryDockerCli(['volume', 'rm', `${PREFIX}-vol`]);
  await t?.close();
});

describe('engine event history', () => {
  it('keeps container and volume events with the exit code, filters them, and streams them live after a replay', async () => {
    const started = new Date().toISOString();
    const name = `${PREFIX}-exit`;
    expect(
      tryDockerCli(['run', '--name', name, '--label', 'berth.test=1', testEngine().image, 'sh', '-c', 'exit 3']).status,
    ).toBe(3);
    dockerCli(['volume', 'create', '--label', 'berth.test=1', `${PREFIX}-vol`]);

    await until(async () => (await history(`name=${name}&action=die`)).length === 1, 'the die event in the history');
    const died = (await history(`name=${name}&action=die`))[0]!;
    expect(died).toMatchObject({
      type: 'container',
      environment: 'local',
      name,
      attributes: { exitCode: '3', image: testEngine().image },
    });
    expect(died.attributes).not.toHaveProperty('berth.test');
    const all = await history(`name=${name}`);
    expect(all.map((e) => e.action)).toEqual(expect.arrayContaining(['create', 'start', 'die']));
    expect(all.every((e, i) => i === 0 || e.time <= all[i - 1]!.time)).toBe(true);
    expect((await history(`name=${name}&limit=1`)).length).toBe(1);
    expect(
      await history(`name=${name}&until=${encodeURIComponent(new Date(Date.parse(started) - 60_000).toISOString())}`),
    ).toEqual([]);
    await until(
      async () => (await history(`type=volume&name=${PREFIX}-vol`)).some((e) => e.action === 'create'),
      'the volume event',
    );
    expect((await t.client.get('/api/events?type=planet')).status).toBe(400);
    expect(
      (await t.client.get<EngineEventRecord[]>(`/api/environments/local/events?name=${name}&action=die`)).body,
    ).toEqual([died]);
    expect((await t.client.get('/api/environments/nowhere/events')).status).toBe(404);

    // A stream from `since` replays what was kept, oldest first, then carries on live without repeats.
    const sse = await SseReader.open(
      base,
      `/api/events/stream?name=${name}&since=${encodeURIComponent(started)}`,
      cookieHeader(t.client),
    );
    try {
      const records = () => sse.of<EngineEventRecord>('update');
      await sse.waitFor(() => records().some((e) => e.action === 'die'), 'the replayed die event');
      dockerCli(['rm', name]);
      await sse.waitFor(() => records().some((e) => e.action === 'destroy'), 'the live destroy event');
      const ids = records().map((e) => e.id);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
      expect(records().every((e) => e.name === name)).toBe(true);
    } finally {
      sse.close();
    }
  });

  it('drops events past the retention and the row bound', async () => {
    const repo = new EventsRepo(t.ctx.db);
    const name = `${PREFIX}-bound`;
    dockerCli(['create', '--name', name, '--label', 'berth.test=1', testEngine().image, 'true']);
    await until(async () => (await history(`name=${name}`)).length > 0, 'the create event');
    repo.prune(0, 1);
    expect(await history('limit=1000')).toHaveLength(1);
    repo.prune(Date.now() + 60_000, 1000);
    expect(await history('limit=1000')).toHaveLength(0);
  });
});
