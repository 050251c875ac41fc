import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { ContainerSpec, Engine } from '../../docker/engine';
import { bareName } from '../../docker/names';
import { NotFoundError } from '../../errors';

export interface SwapPlan {
  spec: ContainerSpec;
  /** Networks beyond the one in the spec (the engine takes one at create); connected before the swap. */
  extraNetworks?: { name: string; endpoint: object }[];
  /** The replacement's name; default the old container's. */
  name?: string;
}

export interface SwapOptions {
  /** Word in the replacement's temporary name (`<name>-berth-<tag>-<random>`). */
  tempTag: string;
  /** After the replacement started: whether it came up; default it did. */
  gate?: (id: string) => Promise<{ ok: true } | { ok: false; reason: string }>;
  log: FastifyBaseLogger;
}

export type SwapResult =
  | { result: 'swapped'; id: string; name: string; image: string | undefined }
  /** The replacement could not be made; the old container was not touched. */
  | { result: 'not_created'; name: string; error: Error; problems: string[] }
  /** The replacement did not come up and was removed; `problems` lists what putting the old one back could not do. */
  | { result: 'rolled_back'; name: string; reason: string; error: Error | null; problems: string[]; heldAs: string };

/**
 * Replaces a container without losing it — used by app edit/update and by Berth's self-update.
 * The replacement is created first under a temporary name (a failure there changes nothing); then
 * the old one is stopped (freeing its ports) and renamed aside, the replacement takes the name,
 * starts and must pass the gate. Only then is the old one removed (its volumes stay). Otherwise the
 * replacement is removed and the old container gets its name back and is started when it ran.
 */
export async function swapContainer(
  engine: Engine,
  oldRef: string,
  plan: SwapPlan,
  opts: SwapOptions,
): Promise<SwapResult> {
  const oldInfo = await engine.inspectContainer(oldRef);
  const oldId = oldInfo.Id;
  const oldName = bareName(oldInfo.Name);
  const name = plan.name ?? oldName;
  const suffix = randomBytes(4).toString('hex');
  const backup = `${oldName}-berth-old-${suffix}`;
  let createdId: string | null = null;
  try {
    createdId = await engine.createContainer(`${name}-berth-${opts.tempTag}-${suffix}`, plan.spec);
    for (const n of plan.extraNetworks ?? []) await engine.connectNetwork(n.name, createdId, n.endpoint);
  } catch (err) {
    const problems = createdId
      ? await undo(engine, createdId, oldId, { oldName, renamedAside: false, wasRunning: false })
      : [];
    return { result: 'not_created', name, error: err as Error, problems };
  }
  const wasRunning = oldInfo.State.Running || oldInfo.State.Restarting;
  let renamedAside = false;
  let reason: string;
  let error: Error | null = null;
  try {
    if (wasRunning) await engine.stopContainer(oldId, (oldInfo.Config as { StopTimeout?: number }).StopTimeout ?? 10);
    await engine.renameContainer(oldId, backup);
    renamedAside = true;
    await engine.renameContainer(createdId, name);
    await engine.startContainer(createdId);
    const verdict = opts.gate ? await opts.gate(createdId) : ({ ok: true } as const);
    if (verdict.ok) {
      try {
        await engine.removeContainer(oldId, { force: true, volumes: false });
      } catch (err) {
        // The new container runs; the old one only stays behind under its backup name.
        opts.log.warn({ container: backup, err: (err as Error).message }, 'could not remove the replaced container');
      }
      return { result: 'swapped', id: createdId, name, image: plan.spec.Image };
    }
    reason = verdict.reason;
  } catch (err) {
    error = err as Error;
    reason = error.message;
  }
  opts.log.warn({ container: name, reason }, 'the new container did not come up; putting the old one back');
  const problems = await undo(engine, createdId, oldId, { oldName, renamedAside, wasRunning });
  return {
    result: 'rolled_back',
    name,
    reason,
    error,
    problems,
    heldAs: renamedAside && problems.length ? backup : oldName,
  };
}

/** Removes the replacement, gives the old container its name back and restarts it when it was running. */
async function undo(
  engine: Engine,
  createdId: string,
  oldId: string,
  s: { oldName: string; renamedAside: boolean; wasRunning: boolean },
): Promise<string[]> {
  const problems: string[] = [];
  const step = async (what: string, fn: () => Promise<unknown>) => {
    try {
      await fn();
    } catch (err) {
      if (!(err instanceof NotFoundError)) problems.push(`${what}: ${(err as Error).message}`);
    }
  };
  await step('removing the new container', () => engine.removeContainer(createdId, { force: true, volumes: true }));
  if (s.renamedAside) await step('renaming the old container back', () => engine.renameContainer(oldId, s.oldName));
  if (s.wasRunning) await step('starting the old container', () => engine.startContainer(oldId));
  return problems;
}
