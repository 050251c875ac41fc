import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App, AppDiagnosis, ProjectDetail, StatsHistory } from '@berth/contract';
import { createTestApp, type TestApp } from './helpers/app';
import { dockerCli, testEngine, tryDockerCli } from './helpers/engine';
import { buildImage, cleanup, uniqueName } from './images-fixtures';
import { runTicker, until } from './apps-fixtures';

// Issue 36: health in the list and details, and why an app stopped.
let t: TestApp;
const containers: string[] = [];
const images: string[] = [];

/** An image of the test image with a HEALTHCHECK probing every second (`true` passes, `false` fails). */
function healthImage(probe: 'true' | 'false'): string {
  const tag = `${uniqueName('health')}:${probe === 'true' ? 'ok' : 'bad'}`;
  images.push(tag);
  buildImage(tag, {}, 0, [
    `HEALTHCHECK --interval=1s --timeout=2s --retries=2 CMD sh -c 'echo probe says ${probe}; ${probe}'`,
  ]);
  return tag;
}

function run(image: string, extra: string[] = []): string {
  const name = uniqueName('health');
  containers.push(name);
  runTicker(name, extra, image);
  return name;
}

async function listed(name: string): Promise<App> {
  const res = await t.client.get<App[]>('/api/apps/');
  expect(res.status).toBe(200);
  return res.body.find((a) => a.name === name)!;
}

beforeAll(async () => {
  t = await createTestApp();
});

afterAll(async () => {
  cleanup('container', ...containers);
  cleanup('image', ...images);
  await t?.close();
});

describe('app health', () => {
  it('shows healthy and unhealthy in the list and the probe log in the details', async () => {
    const good = run(healthImage('true'));
    const badImage = healthImage('false');
    const bad = run(badImage);
    const plain = run(testEngine().image);
    // The same failing check in a project's service (its containers found by the compose labels).
    const project = uniqueName('health-proj');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'berth-health-'));
    fs.writeFileSync(path.join(dir, 'compose.yaml'), `services:\n  web:\n    image: ${badImage}\n`);
    const labels = [`com.docker.compose.project=${project}`, 'com.docker.compose.service=web'];
    labels.push(
      `com.docker.compose.project.working_dir=${dir}`,
      'com.docker.compose.project.config_files=compose.yaml',
    );
    run(
      badImage,
      labels.flatMap((l) => ['--label', l]),
    );

    await until(async () => (await listed(good)).health === 'healthy', 'the list to say healthy');
    await until(async () => (await listed(bad)).health === 'unhealthy', 'the list to say unhealthy');
    expect((await listed(plain)).health).toBe('none');
    const service = async () => (await t.client.get<ProjectDetail>(`/api/compose/${project}`)).body.containers?.[0];
    await until(async () => (await service())?.health === 'unhealthy', "the project's service to say unhealthy");
    expect(await service()).toMatchObject({ service: 'web', health: 'unhealthy' });

    const res = await t.client.get<App>(`/api/apps/${bad}`);
    expect(res.status).toBe(200);
    expect(res.body.health).toBe('unhealthy');
    expect(res.body.Config.Healthcheck).toMatchObject({ Interval: 1_000_000_000, Retries: 2 });
    expect(res.body.Config.Healthcheck?.Test?.join(' ')).toContain('probe says false');
    const log = res.body.State.Health?.Log ?? [];
    expect(log.length).toBeGreaterThanOrEqual(2);
    expect(log.length).toBeLessThanOrEqual(5);
    expect(log.at(-1)).toMatchObject({ ExitCode: 1, Output: expect.stringContaining('probe says false') });
    expect((await t.client.get<App>(`/api/apps/${good}`)).body.State.Health?.Log?.at(-1)?.ExitCode).toBe(0);
  }, 60_000);
});

describe('GET /api/apps/{name}/diagnosis', () => {
  it('says error with code 3 and the last lines before the stop', async () => {
    const name = uniqueName('health-exit');
    containers.push(name);
    const exited = tryDockerCli([
      'run',
      '--name',
      name,
      '--label',
      'berth.test=1',
      testEngine().image,
      'sh',
      '-c',
      // stdout and stderr are separate pipes: the pause keeps the stderr line last by timestamp too.
      'for i in $(seq 1 60); do echo "line $i"; done; sleep 1; echo "giving up" >&2; exit 3',
    ]);
    expect(exited.status).toBe(3);
    const res = await t.client.get<AppDiagnosis>(`/api/apps/${name}/diagnosis`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name,
      status: 'exited',
      running: false,
      exitCode: 3,
      kind: 'error',
      oomKilled: false,
      restartCount: 0,
      error: null,
    });
    expect(res.body.summary).toContain('code 3');
    expect(res.body).toMatchObject({ killedBy: null, killedByText: null });
    expect(res.body.oneLine).toContain('Last line: giving up');
    expect(res.body.lastLines).toHaveLength(50);
    expect(res.body.lastLines.at(-1)?.text).toBe('giving up');
    expect(res.body.lastLines[0]?.text).toBe('line 12');

    expect((await t.client.get(`/api/apps/berth-t-health-nonexistent/diagnosis`)).status).toBe(404);
  });

  /** Runs `script` in a new busybox app (with `extra` docker run flags), kept for cleanup. */
  function start(script: string, extra: string[] = []): string {
    const name = uniqueName('health-why');
    containers.push(name);
    dockerCli([
      'run',
      '-d',
      '--name',
      name,
      '--label',
      'berth.test=1',
      ...extra,
      testEngine().image,
      'sh',
      '-c',
      script,
    ]);
    return name;
  }
  const diagnosis = async (name: string) => (await t.client.get<AppDiagnosis>(`/api/apps/${name}/diagnosis`)).body;
  const stopped = (name: string) => dockerCli(['wait', name]).trim();

  it('says OOM with the memory curve against the limit, the events around it and the last lines', async () => {
    await t.services.environments.get('local').events.whenConnected(10_000);
    // Adds 512 KiB to a string twice a second: several seconds to reach 16 MiB, measured all along.
    const name = start(
      'y=$(head -c 524288 /dev/zero | tr "\\0" a); x=; while true; do x="$x$y"; echo "holding ${#x} bytes"; sleep 0.5; done',
      ['--memory', '16m', '--memory-swap', '16m'],
    );
    // Measured while it runs (the history keeps what the stats streams gave).
    await until(
      async () =>
        ((await t.client.get<StatsHistory>(`/api/apps/${name}/stats/history?range=10m`)).body.samples?.length ?? 0) > 2,
      'stats samples',
      10_000,
    );
    expect(stopped(name)).toBe('137');
    await until(async () => (await diagnosis(name)).events.some((e) => e.action === 'die'), 'the die event', 10_000);
    const d = await diagnosis(name);
    expect(d).toMatchObject({ kind: 'oom', oomKilled: true, killedBy: 'oom', exitCode: 137 });
    expect(d.memory.limit).toBe(16 * 1024 * 1024);
    // The history's samples up to the stop (on this loaded machine they thinned out in its last seconds).
    expect(d.memory.samples.length).toBeGreaterThanOrEqual(2);
    expect(d.memory.samples.every((s) => Date.parse(s.time) <= Date.parse(d.finishedAt!))).toBe(true);
    expect(Math.max(...d.memory.samples.map((s) => s.bytes))).toBeGreaterThan(1024 * 1024);
    expect(d.events.map((e) => e.action)).toEqual(expect.arrayContaining(['oom', 'die']));
    expect(d.lastLines.at(-1)?.text).toMatch(/^holding \d+ bytes$/);
    expect(d.oneLine).toMatch(/out of memory.* MiB of its 16\.0 MiB limit.*Last line: holding/);
    expect(d.restartsLastHour).toBe(1);
  }, 60_000);

  it('says who killed it: the CLI, a user through Berth, or the host', async () => {
    await t.services.environments.get('local').events.whenConnected(10_000);
    const cli = start('sleep 3600');
    dockerCli(['kill', cli]);
    expect(stopped(cli)).toBe('137');
    await until(async () => (await diagnosis(cli)).killedBy !== 'host', 'the kill event', 10_000);
    expect(await diagnosis(cli)).toMatchObject({ kind: 'killed', killedBy: 'engine' });
    expect((await diagnosis(cli)).killedByText).toContain('signal 9');

    const viaBerth = start('sleep 3600');
    const kill = await t.client.post(`/api/apps/actions/${viaBerth}/kill`, {});
    expect(kill.status, kill.text).toBe(200);
    expect(stopped(viaBerth)).toBe('137');
    await until(async () => (await diagnosis(viaBerth)).killedBy === 'berth', 'the audited kill', 10_000);
    expect((await diagnosis(viaBerth)).killedByText).toContain('through Berth by admin@berth.test');

    // A SIGKILL the engine did not send (here from inside, under an init that passes the code on).
    const host = start('kill -9 $$; sleep 5', ['--init']);
    expect(stopped(host)).toBe('137');
    expect(await diagnosis(host)).toMatchObject({ kind: 'killed', killedBy: 'host' });
  }, 60_000);
});
