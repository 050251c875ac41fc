import type { EnvironmentStatus } from '@berth/contract';
import type { AppContext } from '../../context';
import type { Engine } from '../../docker/engine';
import type { EngineStatus } from '../../docker/engine-status';

const INFO_TIMEOUT_MS = 5000;

/** Reads the engine's own description for the status (best effort: a slow `info` leaves those fields empty). */
async function describe(
  docker: Engine,
  log: AppContext['log'],
): Promise<Pick<EnvironmentStatus, 'os' | 'arch' | 'containers' | 'swarm_role'>> {
  try {
    const info = (await Promise.race([
      docker.info(),
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error('info timed out')), INFO_TIMEOUT_MS).unref()),
    ])) as {
      OperatingSystem?: string;
      Architecture?: string;
      Containers?: number;
      ContainersRunning?: number;
      Swarm?: { LocalNodeState?: string; ControlAvailable?: boolean };
    };
    const running = info.ContainersRunning ?? 0;
    const active = info.Swarm?.LocalNodeState === 'active';
    return {
      os: info.OperatingSystem ?? null,
      arch: info.Architecture ?? null,
      containers: { running, stopped: Math.max(0, (info.Containers ?? 0) - running) },
      swarm_role: active ? (info.Swarm?.ControlAvailable ? 'manager' : 'worker') : 'none',
    };
  } catch (err) {
    log.debug({ err: (err as Error).message }, 'engine info failed');
    return { os: null, arch: null, containers: null, swarm_role: null };
  }
}

export async function statusOf(
  engine: EngineStatus,
  docker: Engine,
  log: AppContext['log'],
  fresh: boolean,
): Promise<EnvironmentStatus> {
  const state = fresh || !engine.checkedAt ? await engine.check() : engine.current;
  const extra = state.reachable
    ? await describe(docker, log)
    : { os: null, arch: null, containers: null, swarm_role: null };
  return {
    reachable: state.reachable,
    version: state.version,
    apiVersion: state.apiVersion,
    ...extra,
    error: state.error,
    checked_at: engine.checkedAt?.toISOString() ?? null,
  };
}

/** The status of an environment whose engine cannot even be set up (the reason in `error`). */
export const brokenStatus = (error: string): EnvironmentStatus => ({
  reachable: false,
  version: null,
  apiVersion: null,
  os: null,
  arch: null,
  containers: null,
  swarm_role: null,
  error,
  checked_at: new Date().toISOString(),
});
