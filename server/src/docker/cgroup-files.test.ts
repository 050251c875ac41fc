import fs from 'node:fs';
import path from 'node:path';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import {
  detectLayout,
  findContainerCgroup,
  parseProcStat,
  readContainerStats,
  type CgroupLayout,
} from './cgroup-files';
import { CgroupStatsSource } from './cgroup-source';
import type { StatsSource } from './stats-hub';
import { toReading } from './stats-math';

/**
 * Recorded cgroup files, two snapshots one second apart (t0, t1) with the host's /proc/stat of the
 * same moment. v1 was recorded on this machine from a `--cpus 0.5 --memory 64m` busybox burning CPU
 * after writing 20 MiB (file cache); `docker stats` showed 49.70 % and 1.07MiB / 64MiB for it. v2
 * (systemd driver path, no memory limit) is written after a real host's files: no v2 host here.
 */
const FIXTURES = path.join(import.meta.dirname, 'fixtures');
const V1_ID = 'fa06f0cd782c48c612d39e59c3d09ddaa5abb75616db5003efb3003366660a51';
const V2_ID = '5b1c0f3e2a9d4c7b8e6f1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b1c2d';
const HOST_MEMORY = 8 * 1024 ** 3;

function snapshot(layout: CgroupLayout, id: string, t: 't0' | 't1') {
  const root = path.join(FIXTURES, `cgroup-${layout}`, t);
  expect(detectLayout(root)).toBe(layout);
  const cg = findContainerCgroup(root, layout, id);
  expect(cg).not.toBeNull();
  const system = parseProcStat(fs.readFileSync(path.join(root, 'proc-stat'), 'utf8'));
  expect(system).not.toBeNull();
  return readContainerStats(cg!, system!, HOST_MEMORY, new Date('2026-11-24T06:00:00Z'));
}

describe('cgroup files', () => {
  it('reads v1 (cpuacct + memory controllers) like the docker CLI: CPU delta × online CPUs, memory less inactive file cache', () => {
    const reading = toReading(snapshot('v1', V1_ID, 't1'), snapshot('v1', V1_ID, 't0'));
    // 518.3 ms of CPU over 1.98 s of host CPU time on 2 CPUs.
    expect(reading).toEqual({
      time: '2026-11-24T06:00:00.000Z',
      cpu_percent: 52.4,
      mem_current: 1122304,
      mem_total: 64 * 1024 ** 2,
      mem_percent: 1.7,
    });
  });

  it('reads v2 (cpu.stat, memory.current, memory.stat) and takes the host memory for an unlimited container', () => {
    const reading = toReading(snapshot('v2', V2_ID, 't1'), snapshot('v2', V2_ID, 't0'));
    // 500.8 ms of CPU over 4 s of host CPU time on 4 CPUs; 22749184 − 20971520 inactive file bytes.
    expect(reading).toMatchObject({ cpu_percent: 50.1, mem_current: 1777664, mem_total: HOST_MEMORY });
  });

  it('finds no layout in a folder that is not a cgroup tree and no cgroup for an unknown container', () => {
    expect(detectLayout(FIXTURES)).toBeNull();
    expect(detectLayout(path.join(FIXTURES, 'missing'))).toBeNull();
    expect(findContainerCgroup(path.join(FIXTURES, 'cgroup-v1', 't0'), 'v1', 'f'.repeat(64))).toBeNull();
  });

  it('hands a container whose cgroup is not in the tree to the fallback source', () => {
    const opened: string[] = [];
    const fallback: StatsSource = { kind: 'engine', open: (t) => (opened.push(t.id), { close: () => undefined }) };
    const source = CgroupStatsSource.detect(
      path.join(FIXTURES, 'cgroup-v1', 't0'),
      fallback,
      pino({ level: 'silent' }),
    );
    expect(source?.kind).toBe('cgroup');
    source!
      .open(
        { id: 'a'.repeat(64), name: 'elsewhere' },
        () => undefined,
        () => undefined,
      )
      .close();
    expect(opened).toEqual(['a'.repeat(64)]);
    source!
      .open(
        { id: V1_ID, name: 'here' },
        () => undefined,
        () => undefined,
      )
      .close();
    expect(opened).toHaveLength(1);
  });
});
