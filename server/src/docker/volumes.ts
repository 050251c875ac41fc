import type { Volume } from '@berth/contract';
import type { DockerClient } from './client';
import { engineCall } from './client';
import type { Without } from './images';

export type EngineVolume = Without<Volume, 'inUse' | 'Project'>;

interface RawVolume {
  Name: string;
  Driver: string;
  Mountpoint: string;
  Scope: string;
  CreatedAt?: string;
  Labels?: Record<string, string> | null;
  Options?: Record<string, string> | null;
}

function normalise(v: RawVolume): EngineVolume {
  return { ...v, CreatedAt: v.CreatedAt ?? null, Labels: v.Labels ?? {}, Options: v.Options ?? null };
}

export async function listVolumes(docker: DockerClient): Promise<EngineVolume[]> {
  const res = await engineCall(() => docker.listVolumes());
  return ((res.Volumes ?? []) as RawVolume[]).map(normalise);
}

export async function inspectVolume(docker: DockerClient, name: string): Promise<EngineVolume> {
  return normalise((await engineCall(() => docker.getVolume(name).inspect())) as RawVolume);
}

export async function createVolume(docker: DockerClient, name: string): Promise<void> {
  await engineCall(() => docker.createVolume({ Name: name, Driver: 'local' }));
}

/** Not forced: a volume a container uses stays, and the engine's 409 says which container. */
export async function removeVolume(docker: DockerClient, name: string): Promise<void> {
  await engineCall(() => docker.getVolume(name).remove());
}
