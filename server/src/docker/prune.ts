import type { PruneResource, PruneResult } from '@berth/contract';
import type { DockerClient } from './client';
import { engineCall } from './client';

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
export async function prune(docker: DockerClient, resource: PruneResource, label: string | null): Promise<PruneResult> {
  const filters: Filters = label ? { label: [label] } : {};
  switch (resource) {
    case 'images': {
      // Dangling only (what `docker image prune` does): removing every unused tagged image surprises people.
      const r = await engineCall(() => docker.pruneImages({ filters: { ...filters, dangling: ['true'] } }));
      return { ImagesDeleted: r.ImagesDeleted ?? [], SpaceReclaimed: r.SpaceReclaimed ?? 0 };
    }
    case 'containers': {
      const r = await engineCall(() => docker.pruneContainers({ filters }));
      return { ContainersDeleted: r.ContainersDeleted ?? [], SpaceReclaimed: r.SpaceReclaimed ?? 0 };
    }
    case 'networks': {
      const r = await engineCall(() => docker.pruneNetworks({ filters }));
      return { NetworksDeleted: r.NetworksDeleted ?? [], SpaceReclaimed: 0 };
    }
    case 'volumes': {
      const version = await engineCall(() => docker.version());
      const all: Filters = volumePruneNeedsAll(version.ApiVersion ?? null) ? { all: ['true'] } : {};
      const r = await engineCall(() => docker.pruneVolumes({ filters: { ...filters, ...all } }));
      return { VolumesDeleted: r.VolumesDeleted ?? [], SpaceReclaimed: r.SpaceReclaimed ?? 0 };
    }
  }
}
