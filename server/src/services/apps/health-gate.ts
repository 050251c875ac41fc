import type { Engine } from '../../docker/engine';

export type GateVerdict = { ok: true } | { ok: false; reason: string };

interface Probe {
  State: { Status: string; Running: boolean; ExitCode?: number; Health?: { Status?: string } | null };
  RestartCount?: number;
}

/** How often the new container is looked at while it settles. */
const POLL_MS = 500;
/** A container with a HEALTHCHECK gets this long (at least) to report healthy. */
const HEALTH_WAIT_MS = 5 * 60_000;

/**
 * Whether a freshly started container came up well: `healthy` when its image has a HEALTHCHECK
 * (unhealthy, exited or still starting after the wait fails), otherwise running without a
 * restart for `settleMs`.
 */
export async function healthGate(engine: Engine, id: string, settleMs: number): Promise<GateVerdict> {
  const started = Date.now();
  const healthDeadline = started + Math.max(settleMs, HEALTH_WAIT_MS);
  for (;;) {
    const info = (await engine.inspectContainer(id)) as unknown as Probe;
    const { State: state } = info;
    if (!state.Running)
      return { ok: false, reason: `The new container stopped (${state.Status}, exit code ${state.ExitCode ?? '?'}).` };
    if ((info.RestartCount ?? 0) > 0)
      return { ok: false, reason: `The new container restarted ${info.RestartCount} time(s).` };
    const health = state.Health?.Status;
    if (health === 'unhealthy') return { ok: false, reason: 'The new container reports unhealthy.' };
    if (health === 'healthy') return { ok: true };
    const now = Date.now();
    if (health === undefined || health === 'none') {
      if (now - started >= settleMs) return { ok: true };
    } else if (now >= healthDeadline) {
      return {
        ok: false,
        reason: `The new container was still ${health} after ${Math.round((now - started) / 1000)} s.`,
      };
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
