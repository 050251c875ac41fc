import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiError, SelfUpdateCheck } from '@berth/contract';
import { loadConfig } from '../src/config';
import { createEngine } from '../src/docker/dockerode-engine';
import { recreateSpec, type ContainerDetail, type RecreateSpec } from '../src/services/apps/containers';
import { swapSelf as swapContainer, UPDATER_LABEL, type SwapOptions } from '../src/services/self-update/self-container';
import { OUTCOME_FILE, runSelfUpdate } from '../src/services/self-update/self-update-run';
import { createTestApp, REAUTH, type TestApp } from './helpers/app';
import { dockerCli, testEngine } from './helpers/engine';
import { buildImage, cleanup, exists, uniqueName } from './images-fixtures';

const log = pino({ level: 'silent' });
const docker = createEngine({ ...loadConfig({}), dockerHost: testEngine().dockerHost });
const fast: SwapOptions = { log, stableMs: 1500, timeoutMs: 20_000, pollMs: 200 };

const inspect = (ref: string): Promise<ContainerDetail> => docker.inspectContainer(ref);
/** Containers whose name starts with `prefix` (the swap's temporary names included). */
const named = (prefix: string) =>
  dockerCli(['ps', '-a', '--filter', `name=${prefix}`, '--format', '{{.Names}}'])
    .split('\n')
    .filter(Boolean)
    .sort();

/** A long-running "Berth" stand-in: busybox asleep, its host name set to its name, quick to stop. */
function runStandIn(name: string, image = testEngine().image, extra: string[] = []): string {
  return dockerCli([
    'run',
    '-d',
    '--name',
    name,
    '--hostname',
    name,
    '--label',
    'berth.test=1',
    '--stop-timeout',
    '1',
    ...extra,
    image,
    'sleep',
    '3600',
  ]).trim();
}

async function specFor(name: string, change: (s: RecreateSpec) => void): Promise<RecreateSpec> {
  const info = await inspect(name);
  const spec = recreateSpec(info, null, info.Config.Image);
  change(spec);
  return spec;
}

describe('the health-gated swap the updater performs (real engine)', () => {
  const names: string[] = [];
  afterAll(() => {
    for (const n of names) cleanup('container', ...named(n));
  });
  const standIn = () => {
    const name = uniqueName('selfswap');
    names.push(name);
    return { name, id: runStandIn(name) };
  };

  it('keeps the new container when it comes up healthy and removes the old one', async () => {
    const { name, id } = standIn();
    const spec = await specFor(name, (s) => {
      s.create.Labels = { ...s.create.Labels, 'berth.t.generation': '2' };
      s.create.Healthcheck = { Test: ['CMD', 'true'], Interval: 1e9, Retries: 1 };
    });
    const outcome = await swapContainer(docker, id, spec, fast);
    expect(outcome.result, outcome.detail).toBe('updated');
    const now = await inspect(name);
    expect(now.Id).not.toBe(id);
    expect(now.State.Running).toBe(true);
    expect(now.Config.Labels['berth.t.generation']).toBe('2');
    expect(named(name)).toEqual([name]);
  });

  it('puts the old container back when the new one fails its health check', async () => {
    const { name, id } = standIn();
    const spec = await specFor(name, (s) => {
      s.create.Healthcheck = { Test: ['CMD', 'false'], Interval: 1e9, Retries: 1 };
    });
    const outcome = await swapContainer(docker, id, spec, fast);
    expect(outcome.result).toBe('rolled_back');
    expect(outcome.detail).toMatch(/health check failed/);
    const now = await inspect(name);
    expect(now.Id).toBe(id);
    expect(now.State.Running).toBe(true);
    expect(named(name)).toEqual([name]);
  });

  it('puts the old container back when the new one exits, naming its exit code', async () => {
    const { name, id } = standIn();
    const spec = await specFor(name, (s) => {
      s.create.Cmd = ['sh', '-c', 'exit 3'];
    });
    const outcome = await swapContainer(docker, id, spec, fast);
    expect(outcome.result).toBe('rolled_back');
    expect(outcome.detail).toMatch(/exit code 3/);
    expect((await inspect(name)).Id).toBe(id);
    expect((await inspect(name)).State.Running).toBe(true);
  });

  it('touches nothing when the new container cannot even be created', async () => {
    const { name, id } = standIn();
    const startedAt = (await inspect(id)).State.StartedAt;
    const spec = await specFor(name, (s) => {
      s.create.Image = `${testEngine().registry}/berth-test/no-such-image:none`;
    });
    const outcome = await swapContainer(docker, id, spec, fast);
    expect(outcome.result).toBe('failed');
    expect(outcome.detail).toMatch(/could not be created.*left as it was/);
    const now = await inspect(name);
    expect(now.Id).toBe(id);
    expect(now.State.StartedAt).toBe(startedAt);
    expect(named(name)).toEqual([name]);
  });
});

describe('self-update check and start against a stand-in Berth container and the local registry', () => {
  const name = uniqueName('selfupd');
  const ref = `${testEngine().registry}/berth-test/${name}:latest`;
  let t: TestApp;
  let v1 = '';
  const extra: string[] = [];

  beforeAll(async () => {
    dockerCli(['tag', testEngine().image, ref]);
    dockerCli(['push', ref]);
    v1 = dockerCli(['image', 'inspect', '--format', '{{.Id}}', ref]).trim();
    runStandIn(name, ref);
    t = await createTestApp({ HOSTNAME: name });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    cleanup('container', ...named(name), ...extra);
    cleanup('image', ref);
  });

  const check = async () => {
    const res = await t.client.get<SelfUpdateCheck>('/api/settings/update/status');
    expect(res.status, res.text).toBe(200);
    return res.body;
  };

  it('finds its own container by host name and reports it up to date', async () => {
    expect(await check()).toMatchObject({
      updatable: false,
      reason: null,
      container: name,
      image: ref,
      lastUpdate: null,
    });
  });

  it('refuses to start an update when the registry has nothing newer', async () => {
    const res = await t.client.post<ApiError>('/api/settings/update', REAUTH);
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: 'up_to_date' });
  });

  it('sees a newer image pushed under the same tag', async () => {
    buildImage(ref);
    dockerCli(['push', ref]);
    expect(await check()).toMatchObject({ updatable: true, reason: null, container: name });
  }, 120_000);

  it('refuses a second update while an updater for it is running', async () => {
    const self = await inspect(name);
    const fake = uniqueName('selfupd-updater');
    extra.push(fake);
    dockerCli([
      'run',
      '-d',
      '--name',
      fake,
      '--label',
      'berth.test=1',
      '--label',
      `${UPDATER_LABEL}=${self.Id}`,
      testEngine().image,
      'sleep',
      '3600',
    ]);
    const res = await t.client.post<ApiError>('/api/settings/update', REAUTH);
    expect(res.status).toBe(409);
    expect(res.body.detail).toContain(fake);
    cleanup('container', fake);
  });

  it('removes an updater that cannot start and leaves Berth running', async () => {
    // The stand-in image has no node, so the updater copy of it cannot run; the failure is reported.
    const before = await inspect(name);
    const res = await t.client.post<ApiError>('/api/settings/update', REAUTH);
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.body.detail).toMatch(/node/);
    expect(
      dockerCli(['ps', '-a', '--filter', `label=${UPDATER_LABEL}=${before.Id}`, '--format', '{{.Names}}']).trim(),
    ).toBe('');
    const after = await inspect(name);
    expect(after.Id).toBe(before.Id);
    expect(after.State.StartedAt).toBe(before.State.StartedAt);
  });

  it('the updater swaps Berth onto the new image and records the outcome for the next Berth', async () => {
    const old = await inspect(name);
    expect(old.Image).toBe(v1);
    const outcome = await runSelfUpdate(docker, {
      target: old.Id,
      image: ref,
      dataDir: t.dataDir,
      log,
      graceMs: 0,
      stableMs: 1500,
      pollMs: 200,
      healthTimeoutMs: 20_000,
    });
    expect(outcome.result, outcome.detail).toBe('updated');
    const now = await inspect(name);
    expect(now.Id).not.toBe(old.Id);
    expect(now.Image).not.toBe(v1);
    expect(now.Config.Hostname).toBe(name);
    expect(exists('container', old.Id)).toBe(false);
    const recorded = JSON.parse(fs.readFileSync(path.join(t.dataDir, OUTCOME_FILE), 'utf8')) as { result: string };
    expect(recorded.result).toBe('updated');
    const after = await check();
    expect(after).toMatchObject({ updatable: false, container: name, lastUpdate: { result: 'updated', image: ref } });
  });

  it('records a failed run when the target container does not exist', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'berth-t-selfupd-'));
    try {
      const outcome = await runSelfUpdate(docker, {
        target: `${name}-gone`,
        image: ref,
        dataDir: dir,
        log,
        graceMs: 0,
      });
      expect(outcome.result).toBe('failed');
      expect(JSON.parse(fs.readFileSync(path.join(dir, OUTCOME_FILE), 'utf8'))).toMatchObject({
        result: 'failed',
        image: ref,
      });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
