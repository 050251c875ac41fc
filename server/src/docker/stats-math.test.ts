import { describe, expect, it } from 'vitest';
import { cpuPercent, isEmptySample, memoryUsed, toReading, type EngineStats } from './stats-math';

// Samples in the shapes GET /containers/{id}/stats returns (Docker Engine API v1.41 docs), trimmed
// to realistic values that make the expected numbers easy to check by hand.

/** cgroup v1 host: percpu_usage present, memory stats with total_* keys. */
const cgroupV1: EngineStats = {
  read: '2024-05-01T12:00:02.000000000Z',
  cpu_stats: {
    cpu_usage: { total_usage: 1_500_000_000, percpu_usage: [800_000_000, 700_000_000] },
    system_cpu_usage: 100_004_000_000_000,
    online_cpus: 2,
  },
  precpu_stats: {
    cpu_usage: { total_usage: 1_000_000_000, percpu_usage: [550_000_000, 450_000_000] },
    system_cpu_usage: 100_000_000_000_000,
    online_cpus: 2,
  },
  memory_stats: {
    usage: 104_857_600,
    limit: 1_073_741_824,
    stats: {
      cache: 25_165_824,
      inactive_file: 20_971_520,
      total_inactive_file: 20_971_520,
      total_cache: 25_165_824,
      rss: 79_691_776,
    },
  },
};

/** cgroup v2 host: no percpu_usage, memory stats without total_* keys. */
const cgroupV2: EngineStats = {
  read: '2024-05-01T12:00:02.000000000Z',
  cpu_stats: {
    cpu_usage: { total_usage: 750_000_000 },
    system_cpu_usage: 50_008_000_000_000,
    online_cpus: 4,
  },
  precpu_stats: {
    cpu_usage: { total_usage: 500_000_000 },
    system_cpu_usage: 50_000_000_000_000,
    online_cpus: 4,
  },
  memory_stats: {
    usage: 52_428_800,
    limit: 8_589_934_592,
    stats: { anon: 31_457_280, file: 20_971_520, active_file: 10_485_760, inactive_file: 10_485_760, inactive_anon: 0 },
  },
};

describe('cpuPercent', () => {
  it('uses the CPU delta over the system delta times online CPUs (cgroup v1)', () => {
    // 0.5 s of CPU over 4 s of host time (2 CPUs × 2 s) × 2 CPUs = 25 %
    expect(cpuPercent(cgroupV1)).toBeCloseTo(25, 6);
  });

  it('works without percpu_usage (cgroup v2)', () => {
    // 0.25 s over 8 s (4 CPUs × 2 s) × 4 = 12.5 %
    expect(cpuPercent(cgroupV2)).toBeCloseTo(12.5, 6);
  });

  it('falls back to the number of percpu entries when online_cpus is missing', () => {
    const s: EngineStats = {
      ...cgroupV1,
      cpu_stats: {
        ...cgroupV1.cpu_stats,
        online_cpus: undefined,
        cpu_usage: { total_usage: 1_500_000_000, percpu_usage: [1, 2, 3, 4] },
      },
    };
    expect(cpuPercent(s)).toBeCloseTo(50, 6);
  });

  it('is 0 for the first sample of a stream (empty precpu_stats) and uses the previous sample when given', () => {
    const first: EngineStats = { ...cgroupV2, precpu_stats: { cpu_usage: { total_usage: 0 }, system_cpu_usage: 0 } };
    expect(cpuPercent(first)).toBe(0);
    expect(cpuPercent(first, { cpu_stats: cgroupV2.precpu_stats })).toBeCloseTo(12.5, 6);
  });

  it('is 0 when the system delta is zero or counters went backwards', () => {
    expect(cpuPercent({ ...cgroupV1, precpu_stats: cgroupV1.cpu_stats })).toBe(0);
    expect(cpuPercent({ cpu_stats: cgroupV1.precpu_stats, precpu_stats: cgroupV1.cpu_stats })).toBe(0);
  });
});

describe('memoryUsed', () => {
  it('subtracts total_inactive_file on cgroup v1', () => {
    expect(memoryUsed(cgroupV1)).toBe(104_857_600 - 20_971_520);
  });

  it('subtracts inactive_file on cgroup v2', () => {
    expect(memoryUsed(cgroupV2)).toBe(52_428_800 - 10_485_760);
  });

  it('keeps usage when the cache figure is missing or larger than usage', () => {
    expect(memoryUsed({ memory_stats: { usage: 1000 } })).toBe(1000);
    expect(memoryUsed({ memory_stats: { usage: 1000, stats: { inactive_file: 5000 } } })).toBe(1000);
  });

  it('is 0 when the host has no memory cgroup (empty memory_stats)', () => {
    expect(memoryUsed({ memory_stats: {} })).toBe(0);
    expect(memoryUsed({})).toBe(0);
  });
});

describe('toReading', () => {
  it('turns a cgroup v1 sample into rounded percentages and bytes', () => {
    expect(toReading(cgroupV1)).toEqual({
      time: '2024-05-01T12:00:02.000000000Z',
      cpu_percent: 25,
      mem_percent: 7.8, // 80 MiB of 1 GiB
      mem_current: 83_886_080,
      mem_total: 1_073_741_824,
    });
  });

  it('turns a cgroup v2 sample into rounded percentages and bytes', () => {
    expect(toReading(cgroupV2)).toEqual({
      time: '2024-05-01T12:00:02.000000000Z',
      cpu_percent: 12.5,
      mem_percent: 0.5, // 40 MiB of 8 GiB = 0.49 %
      mem_current: 41_943_040,
      mem_total: 8_589_934_592,
    });
  });

  it('reports CPU with zero memory when memory_stats is empty (Raspberry Pi without the memory cgroup)', () => {
    const r = toReading({ ...cgroupV1, memory_stats: {} });
    expect(r).toMatchObject({ cpu_percent: 25, mem_percent: 0, mem_current: 0, mem_total: 0 });
  });

  it('skips the empty samples the engine sends for a stopped container', () => {
    const stopped: EngineStats = {
      read: '0001-01-01T00:00:00Z',
      cpu_stats: { cpu_usage: { total_usage: 0 }, system_cpu_usage: 0 },
      memory_stats: {},
    };
    expect(isEmptySample(stopped)).toBe(true);
    expect(toReading(stopped)).toBeNull();
  });

  it('never throws on malformed input', () => {
    for (const bad of [
      null,
      undefined,
      42,
      'x',
      {},
      { cpu_stats: null },
      { cpu_stats: { cpu_usage: { total_usage: 'many' } } },
      { memory_stats: { usage: Number.NaN } },
    ]) {
      expect(() => toReading(bad as unknown as EngineStats)).not.toThrow();
      expect(toReading(bad as unknown as EngineStats)).toBeNull();
    }
  });
});
