import type { Volume } from '@berth/contract';
import type { Engine, RawVolume } from '../../docker/engine';
import type { Without } from '../images/engine-images';

export type EngineVolume = Without<Volume, 'inUse' | 'Project'>;

function normalise(v: RawVolume): EngineVolume {
  return { ...v, CreatedAt: v.CreatedAt ?? null, Labels: v.Labels ?? {}, Options: v.Options ?? null };
}

export async function listVolumes(engine: Engine): Promise<EngineVolume[]> {
  return (await engine.listVolumes()).map(normalise);
}

export async function inspectVolume(engine: Engine, name: string): Promise<EngineVolume> {
  return normalise(await engine.inspectVolume(name));
}

export async function createVolume(engine: Engine, name: string): Promise<void> {
  await engine.createVolume(name);
}

/** Not forced: a volume a container uses stays, and the engine's 409 says which container. */
export async function removeVolume(engine: Engine, name: string): Promise<void> {
  await engine.removeVolume(name);
}
