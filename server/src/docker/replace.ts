import { randomBytes } from 'node:crypto';
import type Docker from 'dockerode';
import type { FastifyBaseLogger } from 'fastify';
import type { DockerClient } from './client';
import { engineCall, translateEngineError } from './client';
import { AppError, EngineError } from '../errors';

/** What a container is created from (the engine's create body without the name). */
export type ContainerSpec = Omit<Docker.ContainerCreateOptions, 'name' | 'abortSignal'>;

/** Port clashes surface when the container starts; the engine calls them a 500, they are a conflict. */
export function translateStartError(err: unknown): Error {
  const e = translateEngineError(err);
  if (e instanceof EngineError && /port is already allocated|address already in use/i.test(e.message)) {
    return new AppError(409, 'port_in_use', `A host port is already in use: ${e.message}`);
  }
  return e;
}

const isNotFound = (err: unknown) => (err as { statusCode?: number }).statusCode === 404;

export interface ReplaceResult {
  id: string;
  name: string;
}

export interface ReplaceOptions {
  /** The replacement's name; default the old container's. */
  name?: string;
  /** Networks beyond the one in the spec (the engine takes one at create); connected before the swap. */
  extraNetworks?: { name: string; endpoint: object }[];
  log: FastifyBaseLogger;
}

/**
 * Replaces a container without losing it: the replacement is created first (under a temporary
 * name), then the old one is stopped and renamed aside, the new one takes the name and starts,
 * and only then is the old one removed (its volumes stay). If the replacement cannot be created,
 * nothing was touched; if it cannot start, it is removed and the old container is renamed back
 * and restarted when it was running.
 */
export async function replaceContainer(
  docker: DockerClient,
  oldRef: string,
  spec: ContainerSpec,
  opts: ReplaceOptions,
): Promise<ReplaceResult> {
  const oldInfo = await engineCall(() => docker.getContainer(oldRef).inspect());
  const old = docker.getContainer(oldInfo.Id);
  const oldName = oldInfo.Name.replace(/^\//, '');
  const name = opts.name ?? oldName;
  const suffix = randomBytes(4).toString('hex');
  const created = await engineCall(() => docker.createContainer({ ...spec, name: `${name}-berth-new-${suffix}` }));
  try {
    for (const n of opts.extraNetworks ?? []) await docker.getNetwork(n.name).connect({ Container: created.id, EndpointConfig: n.endpoint });
  } catch (err) {
    await restore(created, old, { oldName, renamedAside: false, wasRunning: false });
    throw translateEngineError(err);
  }
  const wasRunning = oldInfo.State.Running || oldInfo.State.Restarting;
  let renamedAside = false;
  try {
    if (wasRunning) await old.stop({ t: (oldInfo.Config as { StopTimeout?: number }).StopTimeout ?? 10 });
    await old.rename({ name: `${oldName}-berth-old-${suffix}` });
    renamedAside = true;
    await created.rename({ name });
    await created.start();
  } catch (err) {
    const failure = translateStartError(err);
    const problems = await restore(created, old, { oldName, renamedAside, wasRunning });
    if (problems.length) {
      opts.log.error({ container: oldName, problems }, 'replacing a container failed and restoring the old one failed too');
      throw new AppError(500, 'restore_failed', `${failure.message} Restoring the previous container also failed (${problems.join('; ')}); it is named ${renamedAside ? `${oldName}-berth-old-${suffix}` : oldName}.`);
    }
    throw failure;
  }
  try {
    await old.remove({ force: true, v: false });
  } catch (err) {
    // The new container runs; the old one only stays behind under its backup name.
    opts.log.warn({ container: oldName, err: translateEngineError(err).message }, 'could not remove the replaced container');
  }
  return { id: created.id, name };
}

async function restore(
  created: Docker.Container,
  old: Docker.Container,
  s: { oldName: string; renamedAside: boolean; wasRunning: boolean },
): Promise<string[]> {
  const problems: string[] = [];
  const step = async (what: string, fn: () => Promise<unknown>) => {
    try {
      await fn();
    } catch (err) {
      if (!isNotFound(err)) problems.push(`${what}: ${translateEngineError(err).message}`);
    }
  };
  await step('removing the new container', () => created.remove({ force: true, v: true }));
  if (s.renamedAside) await step('renaming the old container back', () => old.rename({ name: s.oldName }));
  if (s.wasRunning) await step('starting the old container', () => old.start());
  return problems;
}
