import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Health, StatsHistory } from '@berth/contract';
import { EngineStatsSource, type StatsSource } from '../src/docker/stats-hub';
import { until } from './apps-fixtures';
import { createTestApp, type TestApp } from './helpers/app';
import { dockerCli, removeContainersNamed, testEngine } from './helpers/engine';

const PREFIX = `berth-stats-src-${randomBytes(3).toString('hex')}`;
const IN_BOUND = (v: number) => v >= 45 && v <= 55;
/** A reading is stable once this many in a row fall in the bound (the first ones after start may not). */
const STABLE = 3;

/** Waits until `read` gives STABLE values in a row within 45–55 %; throws with what it saw otherwise. */
async function stableHalfCore(what: string, next: () => Promise<number>, timeoutMs = 60_000): Promise<number[]> {
  const deadline = Date.now() + timeoutMs;
  const seen: number[] = [];
  let run: number[] = [];
  while (Date.now() < deadline) {
    const v = await next();
    seen.push(v);
    run = IN_BOUND(v) ? [...run, v] : [];
    if (run.length >= STABLE) return run;
  }
  throw new Error(`${what} never read a stable 45–55 %: ${seen.join(', ')}`);
}

/** Pulls readings of one source one at a time. */
function readings(source: StatsSource, id: string, name: string) {
  const queue: number[] = [];
  let wake: (() => void) | null = null;
  const handle = source.open({ id, name }, (r) => (queue.push(r.cpu_percent), wake?.()), () => wake?.());
  const next = async () => {
    while (!queue.length) await new Promise<void>((resolve) => (wake = resolve));
    return queue.shift()!;
  };
  return { next, close: () => handle.close() };
}

describe('live stats sources and history', () => {
  let t: TestApp;
  let id: string;
  const name = `${PREFIX}-burn`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'berth-test-'));

  beforeAll(async () => {
    t = await createTestApp({ DATA_DIR: dataDir });
    id = dockerCli(['run', '-d', '--name', name, '--label', 'berth.test=1', '--cpus', '0.5', testEngine().image, 'sh', '-c', 'while :; do :; done']).trim();
  });
  afterAll(async () => {
    removeContainersNamed(PREFIX);
    await t?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('runs the cgroup source for the local engine and says so in /api/health', async () => {
    const res = await t.anon().get<Health>('/api/health');
    expect(res.body.stats).toEqual({ source: 'cgroup' });
    expect(t.services.environments.local.hub.source).toBe('cgroup');
  });

  it('reads a container burning half a core at 45–55 % from the cgroup files, the engine and docker stats', async () => {
    const viaHub: number[] = [];
    let wake: (() => void) | null = null;
    const off = t.services.environments.local.hub.watch({ id, name, running: true }, { sample: (s) => (viaHub.push(s.cpu_percent), wake?.()), state: () => undefined });
    try {
      const cgroup = await stableHalfCore('the cgroup source', async () => {
        while (!viaHub.length) await new Promise<void>((resolve) => (wake = resolve));
        return viaHub.shift()!;
      });
      expect(cgroup.every(IN_BOUND)).toBe(true);
    } finally {
      off();
    }

    const engine = readings(new EngineStatsSource(t.ctx.docker), id, name);
    try {
      expect((await stableHalfCore('the engine source', engine.next)).every(IN_BOUND)).toBe(true);
    } finally {
      engine.close();
    }

    const cli = await stableHalfCore('docker stats', async () => parseFloat(dockerCli(['stats', '--no-stream', '--format', '{{.CPUPerc}}', id])));
    expect(cli.every(IN_BOUND)).toBe(true);
  });

  it('keeps the history across a restart, with the max of each step', async () => {
    const history = async (range: string) => (await t.client.get<StatsHistory>(`/api/apps/${name}/stats/history?range=${range}`)).body;
    // The recorder has watched the running container since the app started.
    await until(async () => (await history('10m')).samples.length >= 5, 'five seconds of history');
    const before = await history('10m');
    expect(before.step).toBe(1);
    await t.close();
    t = await createTestApp({ DATA_DIR: dataDir });

    const after = await history('10m');
    const times = new Set(after.samples.map((s) => s.time));
    expect(before.samples.every((s) => times.has(s.time))).toBe(true);
    const hour = await history('1h');
    expect(hour.step).toBe(10);
    expect(hour.samples.length).toBeGreaterThan(0);
    for (const s of hour.samples) {
      expect(s.cpu_max).toBeGreaterThanOrEqual(s.cpu_percent);
      expect(s.mem_max).toBeGreaterThanOrEqual(s.mem_current);
    }
    // Each 10 s step's max is the highest 1 s reading inside it.
    const step = hour.samples[0]!;
    const start = Date.parse(step.time);
    const inside = after.samples.filter((s) => Date.parse(s.time) >= start && Date.parse(s.time) < start + 10_000);
    if (inside.length) expect(step.cpu_max).toBe(Math.max(...inside.map((s) => s.cpu_max)));

    const bad = await t.client.get<{ code: string; detail: string }>(`/api/apps/${name}/stats/history?range=3w`);
    expect(bad.status).toBe(400);
    expect(bad.body.detail).toContain('10m, 1h, 24h, 7d');
  });
});
