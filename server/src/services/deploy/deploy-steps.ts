import type { FastifyBaseLogger } from 'fastify';
import type { ContainerSpec, Engine } from '../../docker/engine';
import { bareName } from '../../docker/names';
import { NotFoundError } from '../../errors';

/** Runs an engine read; a 404 becomes null instead of an error. */
async function orNull<T>(fn: () => Promise<T>): Promise<T | null> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof NotFoundError) return null;
    throw err;
  }
}

export async function imagePresent(engine: Engine, ref: string): Promise<boolean> {
  return (await orNull(() => engine.inspectImage(ref))) !== null;
}

export async function networkExists(engine: Engine, name: string): Promise<boolean> {
  return (await orNull(() => engine.inspectNetwork(name))) !== null;
}

export interface ContainerBrief {
  id: string;
  name: string;
  status: string;
}

/** A container by name or id, or null when there is none. */
export async function findContainer(engine: Engine, ref: string): Promise<ContainerBrief | null> {
  const info = await orNull(() => engine.inspectContainer(ref));
  return info && { id: info.Id, name: bareName(info.Name), status: info.State.Status };
}

/** Creates and starts a container; if it cannot start it is removed again, so nothing half-made stays. */
export async function createAndStart(
  engine: Engine,
  name: string,
  spec: ContainerSpec,
  log: FastifyBaseLogger,
): Promise<ContainerBrief> {
  const id = await engine.createContainer(name, spec);
  try {
    await engine.startContainer(id);
  } catch (err) {
    try {
      await engine.removeContainer(id, { force: true, volumes: true });
    } catch (removeErr) {
      log.warn(
        { container: name, err: (removeErr as Error).message },
        'could not remove a container that failed to start',
      );
    }
    throw err;
  }
  return (await findContainer(engine, id)) ?? { id, name, status: 'running' };
}
