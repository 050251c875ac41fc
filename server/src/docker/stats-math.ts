import type { StatsSample } from '@berth/contract';

/**
 * The parts of an engine stats sample (GET /containers/{id}/stats) we read. Every field is
 * optional: cgroup v1 and v2 hosts fill different ones, hosts without a memory cgroup send an
 * empty `memory_stats`, and a stopped container yields a sample with nothing in it.
 */
export interface EngineStats {
  read?: string;
  cpu_stats?: EngineCpuStats;
  precpu_stats?: EngineCpuStats;
  memory_stats?: {
    usage?: number;
    limit?: number;
    stats?: Record<string, number | undefined>;
  };
}

interface EngineCpuStats {
  cpu_usage?: { total_usage?: number; percpu_usage?: number[] | null };
  system_cpu_usage?: number;
  online_cpus?: number;
}

/** A sample without the container's name (the hub adds it: names change on rename). */
export type StatsReading = Omit<StatsSample, 'name'>;

const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const round1 = (v: number) => Math.round(v * 10) / 10;
const ZERO_TIME = /^0001-01-01/;

/**
 * CPU percent like the docker CLI: (Δ container CPU time ÷ Δ host CPU time) × online CPUs × 100.
 * `previous` stands in when the engine left `precpu_stats` empty (the first sample of a stream).
 */
export function cpuPercent(s: EngineStats, previous?: EngineStats): number {
  const now = s.cpu_stats;
  let before = s.precpu_stats;
  if (!num(before?.system_cpu_usage) && previous) before = previous.cpu_stats;
  const cpu = num(now?.cpu_usage?.total_usage);
  const cpuBefore = num(before?.cpu_usage?.total_usage);
  const sys = num(now?.system_cpu_usage);
  const sysBefore = num(before?.system_cpu_usage);
  // Without a real earlier reading the delta would be the container's whole lifetime (the original's bug).
  if (cpu === undefined || cpuBefore === undefined || !sys || !sysBefore) return 0;
  const cpuDelta = cpu - cpuBefore;
  const sysDelta = sys - sysBefore;
  if (sysDelta <= 0 || cpuDelta < 0) return 0;
  const online = num(now?.online_cpus) || now?.cpu_usage?.percpu_usage?.length || 1;
  return (cpuDelta / sysDelta) * online * 100;
}

/** Memory in use like the docker CLI: usage minus inactive file cache (v1: total_inactive_file, v2: inactive_file). */
export function memoryUsed(s: EngineStats): number {
  const usage = num(s.memory_stats?.usage);
  if (usage === undefined) return 0;
  const stats = s.memory_stats?.stats ?? {};
  const v1 = num(stats.total_inactive_file);
  if (v1 !== undefined && v1 < usage) return usage - v1;
  const v2 = num(stats.inactive_file);
  if (v2 !== undefined && v2 < usage) return usage - v2;
  return usage;
}

/** True when the sample carries no measurement at all (the engine's placeholder for a stopped container). */
export function isEmptySample(s: EngineStats): boolean {
  const noCpu =
    num(s.cpu_stats?.cpu_usage?.total_usage) === undefined || num(s.cpu_stats?.system_cpu_usage) === undefined;
  const noMem = num(s.memory_stats?.usage) === undefined;
  return (noCpu && noMem) || (typeof s.read === 'string' && ZERO_TIME.test(s.read));
}

/** Turns one engine sample into ours; null for an empty one. Never throws on odd input. */
export function toReading(s: EngineStats, previous?: EngineStats): StatsReading | null {
  if (!s || typeof s !== 'object' || isEmptySample(s)) return null;
  const used = memoryUsed(s);
  const limit = num(s.memory_stats?.limit) ?? 0;
  return {
    time: typeof s.read === 'string' ? s.read : new Date().toISOString(),
    cpu_percent: round1(cpuPercent(s, previous)),
    mem_percent: limit > 0 ? round1((used / limit) * 100) : 0,
    mem_current: used,
    mem_total: limit,
  };
}
