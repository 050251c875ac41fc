import fs from 'node:fs';

/**
 * The host's own figures from /proc and statfs, for the local engine's host (Berth sees the
 * host's /proc/stat and /proc/meminfo even inside a container: neither is namespaced).
 */
export interface CpuTimes {
  busy: number;
  total: number;
  cpus: number;
}

export function readCpuTimes(file = '/proc/stat'): CpuTimes | null {
  try {
    const lines = fs.readFileSync(file, 'utf8').split('\n');
    const f = lines[0]?.startsWith('cpu ') ? lines[0].trim().split(/\s+/).slice(1).map(Number) : [];
    if (f.length < 5 || f.some((n) => !Number.isFinite(n))) return null;
    // user nice system idle iowait irq softirq steal: idle and iowait are the time nobody used.
    const total = f.slice(0, 8).reduce((a, b) => a + b, 0);
    return { busy: total - f[3]! - f[4]!, total, cpus: lines.filter((l) => /^cpu\d+ /.test(l)).length || 1 };
  } catch {
    return null;
  }
}

/** Busy share of all CPUs between two readings, in percent. */
export const cpuBetween = (a: CpuTimes, b: CpuTimes): number =>
  b.total > a.total ? Math.round(((b.busy - a.busy) / (b.total - a.total)) * 1000) / 10 : 0;

/** Used (total − available, like `free`) and total bytes. */
export function readMemory(file = '/proc/meminfo'): { used: number; total: number } | null {
  try {
    const kb: Record<string, number> = {};
    for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
      const m = /^(\w+):\s+(\d+)/.exec(line);
      if (m) kb[m[1]!] = Number(m[2]);
    }
    if (kb.MemTotal === undefined || kb.MemAvailable === undefined) return null;
    return { used: (kb.MemTotal - kb.MemAvailable) * 1024, total: kb.MemTotal * 1024 };
  } catch {
    return null;
  }
}

/** The file system holding `dir`, or null when Berth cannot see that folder. */
export function readDisk(dir: string): { path: string; used: number; total: number } | null {
  try {
    const s = fs.statfsSync(dir);
    return { path: dir, used: (s.blocks - s.bfree) * s.bsize, total: s.blocks * s.bsize };
  } catch {
    return null;
  }
}
