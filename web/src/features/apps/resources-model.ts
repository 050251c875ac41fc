import type { App, AppResourcesBody, EngineRestartPolicy } from '@berth/contract';

const MiB = 1024 * 1024;

/** The Resources editor's fields (memory in MiB, as people write it). */
export interface ResourcesForm {
  cpus: number;
  memoryMiB: number;
  swapMiB: number;
  cpuShares: number;
  pidsLimit: number;
  restart: EngineRestartPolicy;
  retries: number;
}

/** The editor's fields from the app's HostConfig (the engine's values, passed through). */
export function resourcesForm(app: App): ResourcesForm {
  const h = (app.HostConfig ?? {}) as {
    NanoCpus?: number;
    Memory?: number;
    MemorySwap?: number;
    CpuShares?: number;
    PidsLimit?: number | null;
    RestartPolicy?: { Name?: string; MaximumRetryCount?: number };
  };
  const name = h.RestartPolicy?.Name;
  return {
    cpus: (h.NanoCpus ?? 0) / 1e9,
    memoryMiB: Math.round((h.Memory ?? 0) / MiB),
    swapMiB: (h.MemorySwap ?? 0) <= 0 ? (h.MemorySwap ?? 0) : Math.round((h.MemorySwap ?? 0) / MiB),
    cpuShares: h.CpuShares ?? 0,
    pidsLimit: h.PidsLimit && h.PidsLimit > 0 ? h.PidsLimit : 0,
    restart: name === 'always' || name === 'unless-stopped' || name === 'on-failure' ? name : 'no',
    retries: h.RestartPolicy?.MaximumRetryCount ?? 0,
  };
}

/** What changed, as the API's body; null when nothing did. */
export function resourcesBody(before: ResourcesForm, after: ResourcesForm): AppResourcesBody | null {
  const body: AppResourcesBody = {};
  if (after.cpus !== before.cpus) body.cpus = after.cpus;
  if (after.memoryMiB !== before.memoryMiB) body.memory = after.memoryMiB * MiB;
  if (after.swapMiB !== before.swapMiB) body.memory_swap = after.swapMiB <= 0 ? after.swapMiB : after.swapMiB * MiB;
  if (after.cpuShares !== before.cpuShares) body.cpu_shares = after.cpuShares;
  if (after.pidsLimit !== before.pidsLimit) body.pids_limit = after.pidsLimit;
  if (after.restart !== before.restart || (after.restart === 'on-failure' && after.retries !== before.retries))
    body.restart_policy =
      after.restart === 'on-failure'
        ? { name: after.restart, maximum_retry_count: after.retries }
        : { name: after.restart };
  return Object.keys(body).length ? body : null;
}
