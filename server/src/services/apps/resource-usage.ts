import type { Engine } from '../../docker/engine';

/** How many containers (running or stopped) use each image, volume and network. */
export interface ResourceUsage {
  images: Map<string, number>;
  /** The image references containers were made from (`Image` of the list), by image ID. */
  imageRefs: Map<string, Set<string>>;
  volumes: Map<string, number>;
  networks: Map<string, number>;
}

function bump(map: Map<string, number>, key: string | undefined): void {
  if (key) map.set(key, (map.get(key) ?? 0) + 1);
}

/** One container list answers "in use" for every image, volume and network at once (never one call per item). */
export async function resourceUsage(engine: Engine): Promise<ResourceUsage> {
  const containers = await engine.listContainers({ all: true });
  const usage: ResourceUsage = { images: new Map(), imageRefs: new Map(), volumes: new Map(), networks: new Map() };
  for (const c of containers) {
    bump(usage.images, c.ImageID);
    if (c.ImageID && c.Image)
      usage.imageRefs.set(c.ImageID, (usage.imageRefs.get(c.ImageID) ?? new Set()).add(c.Image));
    for (const m of c.Mounts ?? []) if (m.Type === 'volume') bump(usage.volumes, m.Name);
    for (const n of Object.values(c.NetworkSettings?.Networks ?? {})) bump(usage.networks, n.NetworkID);
  }
  return usage;
}
