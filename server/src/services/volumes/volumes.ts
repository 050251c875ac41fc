import type { Volume, VolumeUser } from '@berth/contract';
import type { Engine } from '../../docker/engine';
import { createVolume, inspectVolume, listVolumes, removeVolume, type EngineVolume } from './engine-volumes';
import { bareName, PROJECT_LABEL } from '../../docker/names';
import { resourceUsage, type ResourceUsage } from '../apps/resource-usage';
import { appsPhrase, containerNames } from '../apps/container-users';
import { ConflictError, NotFoundError } from '../../errors';

function withUsage(v: EngineVolume, usage: ResourceUsage): Volume {
  return { ...v, Project: v.Labels[PROJECT_LABEL] ?? null, inUse: usage.volumes.get(v.Name) ?? 0 };
}

export class VolumesService {
  constructor(private readonly docker: Engine) {}

  async list(): Promise<Volume[]> {
    const [volumes, usage] = await Promise.all([listVolumes(this.docker), resourceUsage(this.docker)]);
    return volumes.map((v) => withUsage(v, usage));
  }

  /** One volume with the containers that mount it (one engine list, filtered by the volume). */
  async get(name: string): Promise<Volume> {
    const [volume, users] = await Promise.all([
      inspectVolume(this.docker, name),
      this.docker.listContainers({ all: true, filters: { volume: [name] } }),
    ]);
    const usedBy: VolumeUser[] = users.flatMap((c) =>
      (c.Mounts ?? [])
        .filter((m) => m.Type === 'volume' && m.Name === name)
        .map((m) => ({
          name: bareName(c.Names?.[0] ?? c.Id.slice(0, 12)),
          id: c.Id,
          state: c.State ?? 'unknown',
          destination: m.Destination ?? '',
          read_only: m.RW === false,
        })),
    );
    return { ...volume, Project: volume.Labels[PROJECT_LABEL] ?? null, inUse: users.length, usedBy };
  }

  /** Creates a local volume; an existing name is a conflict (the engine would silently hand back the old one). */
  async create(name: string): Promise<Volume[]> {
    if (await this.exists(name)) throw new ConflictError(`A volume named ${name} already exists.`);
    await createVolume(this.docker, name);
    return this.list();
  }

  async remove(name: string): Promise<Volume> {
    const volume = await this.get(name);
    try {
      await removeVolume(this.docker, name);
    } catch (err) {
      if (!(err instanceof ConflictError)) throw err;
      // The engine names the users by 64-character id; say which apps they are.
      const users = await containerNames(this.docker, { volume: [name] });
      throw users.length
        ? new ConflictError(`Volume ${name} is in use by ${appsPhrase(users)}; remove the app first.`)
        : err;
    }
    return volume;
  }

  private async exists(name: string): Promise<boolean> {
    try {
      await inspectVolume(this.docker, name);
      return true;
    } catch (err) {
      if (err instanceof NotFoundError) return false;
      throw err;
    }
  }
}
