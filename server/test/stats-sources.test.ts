import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Health } from '@berth/contract';
import { EngineStatsSource, type StatsSource } from '../src/docker/stats-hub';
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

describe('live stats sources', () => {
  let t: TestApp;
  let id: string;
  const name = `${PREFIX}-burn`;

  beforeAll(async () => {
    t = await createTestApp();
    id = dockerCli(['run', '-d', '--name', name, '--label', 'berth.test=1', '--cpus', '0.5', testEngine().image, 'sh', '-c', 'while :; do :; done']).trim();
  });
  afterAll(async () => {
    removeContainersNamed(PREFIX);
    await t?.close();
  });

  it('runs the cgroup source for the local engine and says so in /api/health', async () => {
    const res = await t.anon().get<Health>('/api/health');
    expect(res.body.stats).toEqual({ source: 'cgroup' });
    expect(t.services.hub.source).toBe('cgroup');
  });

  it('reads a container burning half a core at 45–55 % from the cgroup files, the engine and docker stats', async () => {
    const viaHub: number[] = [];
    let wake: (() => void) | null = null;
    const off = t.services.hub.watch({ id, name, running: true }, { sample: (s) => (viaHub.push(s.cpu_percent), wake?.()), state: () => undefined });
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
});
