import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { StatsHistoryRepo, type HistoryBucket } from '../../db/stats-history-repo';
import { downsample, KEEP_SECONDS, toHistorySample } from './stats-history';

const one = (t: number, cpu: number, mem: number): HistoryBucket => ({
  t,
  n: 1,
  cpuSum: cpu,
  cpuMax: cpu,
  memSum: mem,
  memMax: mem,
});

describe('downsample', () => {
  it('keeps the max of every reading and the mean of all readings', () => {
    // A one-second spike to 90 % among 10 % seconds: the mean hides it, the max keeps it.
    const seconds = Array.from({ length: 20 }, (_, i) => one(1000 + i, i === 13 ? 90 : 10, i === 3 ? 900 : 100));
    const tens = downsample(seconds, 10).map(toHistorySample);
    expect(tens).toEqual([
      { time: new Date(1000_000).toISOString(), cpu_percent: 10, cpu_max: 10, mem_current: 180, mem_max: 900 },
      { time: new Date(1010_000).toISOString(), cpu_percent: 18, cpu_max: 90, mem_current: 100, mem_max: 100 },
    ]);
    // Merging merged buckets again gives the same as merging the readings at once.
    expect(downsample(downsample(seconds, 10), 60).map(toHistorySample)).toEqual(
      downsample(seconds, 60).map(toHistorySample),
    );
    expect(downsample(seconds, 60).map(toHistorySample)[0]).toMatchObject({
      cpu_percent: 14,
      cpu_max: 90,
      mem_max: 900,
    });
  });
});

describe('stats history file', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
  });

  it('adds each reading to its 1 s, 10 s and 1 min buckets and purges each resolution after its time', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'berth-history-'));
    dirs.push(dir);
    const repo = new StatsHistoryRepo(dir);
    const t0 = 1_800_000_000; // a multiple of 60
    repo.add([
      { env: 'local', app: 'web', time: t0, cpu: 10, mem: 100 },
      { env: 'local', app: 'web', time: t0 + 1, cpu: 50, mem: 300 },
      { env: 'local', app: 'web', time: t0 + 11, cpu: 30, mem: 200 },
      { env: 'other', app: 'web', time: t0, cpu: 99, mem: 999 },
    ]);
    expect(repo.buckets('local', 'web', 1, 0).map((b) => b.t)).toEqual([t0, t0 + 1, t0 + 11]);
    expect(repo.buckets('local', 'web', 10, 0)).toEqual([
      { t: t0, n: 2, cpuSum: 60, cpuMax: 50, memSum: 400, memMax: 300 },
      { t: t0 + 10, n: 1, cpuSum: 30, cpuMax: 30, memSum: 200, memMax: 200 },
    ]);
    expect(repo.buckets('local', 'web', 60, 0)).toEqual([
      { t: t0, n: 3, cpuSum: 90, cpuMax: 50, memSum: 600, memMax: 300 },
    ]);

    repo.purge(t0 + KEEP_SECONDS[1] + 5, KEEP_SECONDS);
    expect(repo.buckets('local', 'web', 1, 0).map((b) => b.t)).toEqual([t0 + 11]);
    expect(repo.buckets('local', 'web', 10, 0)).toHaveLength(2);
    // An app removed more than 7 days ago has nothing left.
    repo.purge(t0 + KEEP_SECONDS[60] + 60, KEEP_SECONDS);
    expect(repo.buckets('local', 'web', 60, 0)).toEqual([]);
    expect(repo.buckets('other', 'web', 60, 0)).toEqual([]);
    repo.close();
  });
});
