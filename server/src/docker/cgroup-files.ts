import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { EngineStats } from './stats-math';

/**
 * Reads a container's CPU and memory straight from the host's cgroup files, in the engine's own
 * stats shape, so stats-math computes exactly the figures `docker stats` shows. The engine does
 * the same reads (plus a lot of JSON) for its stats API.
 */
export type CgroupLayout = 'v1' | 'v2';

export interface ContainerCgroup {
  layout: CgroupLayout;
  /** v1: the cpuacct directory; v2: the container's one directory. */
  cpuDir: string;
  /** v1: the memory directory; v2: the same as cpuDir. */
  memDir: string;
}

/** What the engine reads as the host's CPU time: /proc/stat's first line and its per-CPU lines. */
export interface SystemCpu {
  /** user+nice+system+idle+iowait+irq+softirq, in nanoseconds (the engine's system_cpu_usage). */
  totalNs: number;
  online: number;
}

/** USER_HZ: /proc/stat counts in 1/100 s on every Linux the engine supports (the engine assumes it too). */
const CLOCK_TICKS = 100;

/** The layout of a cgroup tree, or null when it is not readable (no tree mounted, or not a cgroup tree). */
export function detectLayout(root: string): CgroupLayout | null {
  try {
    if (fs.existsSync(path.join(root, 'cgroup.controllers'))) return 'v2';
    if (fs.statSync(path.join(root, 'cpuacct')).isDirectory() && fs.statSync(path.join(root, 'memory')).isDirectory())
      return 'v1';
  } catch {
    // A missing or unreadable tree is the answer "no cgroup source here", not an error.
  }
  return null;
}

/** Where engines put a container's cgroup: the cgroupfs driver (`docker/<id>`) or the systemd one. */
const candidates = (id: string) => [`docker/${id}`, `system.slice/docker-${id}.scope`];

/** The cgroup directories of one container, or null when they are not in this tree. */
export function findContainerCgroup(root: string, layout: CgroupLayout, id: string): ContainerCgroup | null {
  for (const rel of candidates(id)) {
    if (layout === 'v2') {
      const dir = path.join(root, rel);
      if (fs.existsSync(path.join(dir, 'cpu.stat')) && fs.existsSync(path.join(dir, 'memory.current')))
        return { layout, cpuDir: dir, memDir: dir };
    } else {
      const cpuDir = path.join(root, 'cpuacct', rel);
      const memDir = path.join(root, 'memory', rel);
      if (
        fs.existsSync(path.join(cpuDir, 'cpuacct.usage')) &&
        fs.existsSync(path.join(memDir, 'memory.usage_in_bytes'))
      )
        return { layout, cpuDir, memDir };
    }
  }
  return null;
}

/** `key value` lines (cpu.stat, memory.stat) → numbers. */
export function parseFlatKeyed(text: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const line of text.split('\n')) {
    const [key, value] = line.trim().split(/\s+/);
    if (key && value !== undefined && /^\d+$/.test(value)) out[key] = Number(value);
  }
  return out;
}

export function parseProcStat(text: string): SystemCpu | null {
  let totalNs: number | null = null;
  let online = 0;
  for (const line of text.split('\n')) {
    if (line.startsWith('cpu ')) {
      const fields = line.trim().split(/\s+/).slice(1, 8).map(Number);
      if (fields.length < 7 || fields.some((n) => !Number.isFinite(n))) return null;
      totalNs = (fields.reduce((a, b) => a + b, 0) * 1e9) / CLOCK_TICKS;
    } else if (/^cpu\d+ /.test(line)) online++;
  }
  return totalNs === null ? null : { totalNs, online: online || 1 };
}

const readNumber = (file: string): number | 'max' => {
  const text = fs.readFileSync(file, 'utf8').trim();
  return text === 'max' ? 'max' : Number(text);
};

/**
 * One sample of a container in the engine's stats shape. Throws when the files are gone (the
 * container stopped). A limit above the host's memory means "no limit": like the engine, the
 * host's memory stands in.
 */
export function readContainerStats(
  cg: ContainerCgroup,
  system: SystemCpu,
  hostMemory = os.totalmem(),
  now = new Date(),
): EngineStats {
  let cpuNs: number;
  let usage: number;
  let limit: number | 'max';
  let stats: Record<string, number>;
  if (cg.layout === 'v1') {
    cpuNs = Number(fs.readFileSync(path.join(cg.cpuDir, 'cpuacct.usage'), 'utf8').trim());
    usage = Number(readNumber(path.join(cg.memDir, 'memory.usage_in_bytes')));
    limit = readNumber(path.join(cg.memDir, 'memory.limit_in_bytes'));
    stats = parseFlatKeyed(fs.readFileSync(path.join(cg.memDir, 'memory.stat'), 'utf8'));
  } else {
    const cpu = parseFlatKeyed(fs.readFileSync(path.join(cg.cpuDir, 'cpu.stat'), 'utf8'));
    cpuNs = (cpu.usage_usec ?? 0) * 1000;
    usage = Number(readNumber(path.join(cg.memDir, 'memory.current')));
    limit = fs.existsSync(path.join(cg.memDir, 'memory.max')) ? readNumber(path.join(cg.memDir, 'memory.max')) : 'max';
    stats = parseFlatKeyed(fs.readFileSync(path.join(cg.memDir, 'memory.stat'), 'utf8'));
  }
  const memLimit = limit === 'max' || !Number.isFinite(limit) || limit > hostMemory ? hostMemory : limit;
  // stats-math picks total_inactive_file (v1) or inactive_file (v2), like the CLI; keep only the one of this layout.
  const inactive =
    cg.layout === 'v1' ? { total_inactive_file: stats.total_inactive_file } : { inactive_file: stats.inactive_file };
  return {
    read: now.toISOString(),
    cpu_stats: { cpu_usage: { total_usage: cpuNs }, system_cpu_usage: system.totalNs, online_cpus: system.online },
    memory_stats: { usage, limit: memLimit, stats: inactive },
  };
}
