import type { FastifyBaseLogger } from 'fastify';
import type { DockerClient } from './client';
import { engineCall, translateEngineError } from './client';
import { translateStartError, type ContainerSpec } from './replace';

const isNotFound = (err: unknown) => (err as { statusCode?: number }).statusCode === 404;

/** Runs an engine read; a 404 becomes null instead of an error. */
async function orNull<T>(fn: () => Promise<T>): Promise<T | null> {
  try {
    return await engineCall(fn);
  } catch (err) {
    if (isNotFound(err)) return null;
    throw err;
  }
}

export async function imagePresent(docker: DockerClient, ref: string): Promise<boolean> {
  return (await orNull(() => docker.getImage(ref).inspect())) !== null;
}

export async function networkExists(docker: DockerClient, name: string): Promise<boolean> {
  return (await orNull(() => docker.getNetwork(name).inspect())) !== null;
}

export interface ContainerBrief {
  id: string;
  name: string;
  status: string;
}

/** A container by name or id, or null when there is none. */
export async function findContainer(docker: DockerClient, ref: string): Promise<ContainerBrief | null> {
  const info = await orNull(() => docker.getContainer(ref).inspect());
  return info && { id: info.Id, name: info.Name.replace(/^\//, ''), status: info.State.Status };
}

/** Creates and starts a container; if it cannot start it is removed again, so nothing half-made stays. */
export async function createAndStart(docker: DockerClient, name: string, spec: ContainerSpec, log: FastifyBaseLogger): Promise<ContainerBrief> {
  const container = await engineCall(() => docker.createContainer({ ...spec, name }));
  try {
    await container.start();
  } catch (err) {
    try {
      await container.remove({ force: true, v: true });
    } catch (removeErr) {
      log.warn({ container: name, err: translateEngineError(removeErr).message }, 'could not remove a container that failed to start');
    }
    throw translateStartError(err);
  }
  return (await findContainer(docker, container.id)) ?? { id: container.id, name, status: 'running' };
}
