import type { PruneCandidate, PrunePreview, PruneResource } from '@berth/contract';
import type { Engine } from '../../docker/engine';

/** The engine's own label filter: `key` matches any value, `key=value` that value only. */
export function matchesLabel(labels: Record<string, string> | null | undefined, label: string | null): boolean {
  if (!label) return true;
  const at = label.indexOf('=');
  const key = at < 0 ? label : label.slice(0, at);
  if (!labels || !(key in labels)) return false;
  return at < 0 || labels[key] === label.slice(at + 1);
}

/** Networks the engine never prunes (the daemon's predefined ones). */
const PREDEFINED_NETWORKS = new Set(['bridge', 'host', 'none']);
/** Container states the engine counts as running for prunes (paused and restarting keep their endpoints). */
const LIVE_STATES = new Set(['running', 'paused', 'restarting', 'removing']);

const short = (id: string) => id.replace(/^sha256:/, '').slice(0, 12);
const known = (n: number | undefined | null): number | null => (typeof n === 'number' && n >= 0 ? n : null);

async function candidates(engine: Engine, resource: PruneResource, label: string | null): Promise<PruneCandidate[]> {
  switch (resource) {
    case 'images': {
      // The prune's rule: dangling (no tag) and used by no container; shared layers stay, so only the unique part frees.
      const df = await engine.diskUsage('image');
      return (df.Images ?? [])
        .filter((i) => (i.RepoTags ?? []).every((t) => t === '<none>:<none>') && i.Containers <= 0)
        .filter((i) => matchesLabel(i.Labels, label))
        .map((i) => ({ id: i.Id, name: short(i.Id), size: known(i.Size - Math.max(i.SharedSize, 0)) }));
    }
    case 'containers': {
      const df = await engine.diskUsage('container');
      return (df.Containers ?? [])
        .filter((c) => !LIVE_STATES.has(c.State) && matchesLabel(c.Labels, label))
        .map((c) => ({ id: c.Id, name: (c.Names?.[0] ?? short(c.Id)).replace(/^\//, ''), size: known(c.SizeRw ?? 0) }));
    }
    case 'volumes': {
      // Berth prunes named volumes too (all=true), so every volume with no container counts.
      const df = await engine.diskUsage('volume');
      return (df.Volumes ?? [])
        .filter((v) => (v.UsageData?.RefCount ?? 0) === 0 && matchesLabel(v.Labels, label))
        .map((v) => ({ id: v.Name, name: v.Name, size: known(v.UsageData?.Size) }));
    }
    case 'networks': {
      // A network goes when no running container has an endpoint on it (stopped ones hold none).
      const [networks, containers] = await Promise.all([engine.listNetworks(), engine.listContainers({ all: true })]);
      const attached = new Set<string>();
      for (const c of containers) {
        if (!LIVE_STATES.has(c.State)) continue;
        for (const n of Object.values(c.NetworkSettings?.Networks ?? {})) if (n.NetworkID) attached.add(n.NetworkID);
      }
      return networks
        .filter((n) => !PREDEFINED_NETWORKS.has(n.Name) && !n.Ingress && !n.ConfigOnly && n.Scope !== 'swarm')
        .filter((n) => !attached.has(n.Id) && matchesLabel(n.Labels, label))
        .map((n) => ({ id: n.Id, name: n.Name, size: null }));
    }
  }
}

/** What a prune of `resource` would remove now, by the same rules, and the space that would free. */
export async function prunePreview(
  engine: Engine,
  resource: PruneResource,
  label: string | null,
): Promise<PrunePreview> {
  const items = (await candidates(engine, resource, label)).sort((a, b) => a.name.localeCompare(b.name));
  return { items, SpaceReclaimable: items.reduce((sum, i) => sum + (i.size ?? 0), 0) };
}
