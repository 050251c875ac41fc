import type { SwarmObject, SwarmObjectCreateBody } from '@berth/contract';
import type { z } from 'zod';
import type { Engine } from '../../docker/engine';
import type { SwarmObjectKind } from '../../docker/swarm-engine';
import { ConflictError, NotFoundError } from '../../errors';

/** Configs and secrets: list (with the services using each), create, delete (refused while used). Secret values are write-only. */
export class SwarmObjectsService {
  constructor(
    private readonly docker: Engine,
    private readonly kind: SwarmObjectKind,
  ) {}

  async list(): Promise<SwarmObject[]> {
    const [objects, services] = await Promise.all([
      this.docker.swarm.listObjects(this.kind),
      this.docker.swarm.listServices(),
    ]);
    const users = new Map<string, string[]>();
    for (const s of services) {
      const c = s.Spec.TaskTemplate.ContainerSpec;
      const refs =
        this.kind === 'secret' ? (c.Secrets ?? []).map((x) => x.SecretID) : (c.Configs ?? []).map((x) => x.ConfigID);
      for (const id of new Set(refs)) users.set(id, [...(users.get(id) ?? []), s.Spec.Name]);
    }
    return objects
      .map((o) => ({
        id: o.ID,
        name: o.Spec.Name,
        labels: o.Spec.Labels ?? {},
        createdAt: o.CreatedAt,
        updatedAt: o.UpdatedAt,
        usedBy: (users.get(o.ID) ?? []).sort(),
      }))
      .sort((a, b) => a.name.localeCompare(b.name));
  }

  async create(body: z.output<typeof SwarmObjectCreateBody>): Promise<SwarmObject[]> {
    if ((await this.docker.swarm.listObjects(this.kind)).some((o) => o.Spec.Name === body.name)) {
      throw new ConflictError(
        `A ${this.kind} named ${body.name} already exists; ${this.kind}s cannot be changed, create one under a new name.`,
      );
    }
    await this.docker.swarm.createObject(this.kind, { Name: body.name, Labels: body.labels, Data: body.data });
    return this.list();
  }

  /** By name or full id; refused with the services' names while any uses it. */
  async remove(ref: string): Promise<SwarmObject[]> {
    const found = (await this.list()).find((o) => o.id === ref || o.name === ref);
    if (!found) throw new NotFoundError(this.kind, ref);
    if (found.usedBy.length)
      throw new ConflictError(
        `${this.kind === 'secret' ? 'Secret' : 'Config'} ${found.name} is in use by ${found.usedBy.join(', ')}; remove it from those services first.`,
      );
    await this.docker.swarm.removeObject(this.kind, found.id);
    return this.list();
  }
}
