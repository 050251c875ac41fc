import type { PruneResource, PruneResult } from '@berth/contract';
import type { Engine } from '../../docker/engine';

/** API 1.42 (Docker 23) made volume prune skip named volumes unless asked with all=true. */
function volumePruneNeedsAll(apiVersion: string | null): boolean {
  const [major = 0, minor = 0] = (apiVersion ?? '0.0').split('.').map(Number);
  return major > 1 || (major === 1 && minor >= 42);
}

type Filters = Record<string, string[]>;

/**
 * Prunes one kind of resource and returns the engine's answer with its list always an array.
 * `label` narrows the prune to things carrying that label (`key` or `key=value`).
 */
export async function prune(engine: Engine, resource: PruneResource, label: string | null): Promise<PruneResult> {
  const filters: Filters = label ? { label: [label] } : {};
  switch (resource) {
    case 'images': {
      // Dangling only (what `docker image prune` does): removing every unused tagged image surprises people.
      const r = await engine.prune('images', { ...filters, dangling: ['true'] });
      return { ImagesDeleted: r.ImagesDeleted ?? [], SpaceReclaimed: r.SpaceReclaimed ?? 0 };
    }
    case 'containers': {
      const r = await engine.prune('containers', filters);
      return { ContainersDeleted: r.ContainersDeleted ?? [], SpaceReclaimed: r.SpaceReclaimed ?? 0 };
    }
    case 'networks': {
      const r = await engine.prune('networks', filters);
      return { NetworksDeleted: r.NetworksDeleted ?? [], SpaceReclaimed: 0 };
    }
    case 'volumes': {
      const version = await engine.version();
      const all: Filters = volumePruneNeedsAll(version.ApiVersion ?? null) ? { all: ['true'] } : {};
      const r = await engine.prune('volumes', { ...filters, ...all });
      return { VolumesDeleted: r.VolumesDeleted ?? [], SpaceReclaimed: r.SpaceReclaimed ?? 0 };
    }
  }
}
