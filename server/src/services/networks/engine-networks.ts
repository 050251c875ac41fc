import type { Network } from '@berth/contract';
import type { Engine, RawNetwork } from '../../docker/engine';
import type { Without } from '../images/engine-images';

export type EngineNetwork = Without<Network, 'inUse' | 'Project'>;

function normalise(n: RawNetwork): EngineNetwork {
  return {
    ...n,
    Attachable: n.Attachable ?? false,
    Internal: n.Internal ?? false,
    EnableIPv6: n.EnableIPv6 ?? false,
    Created: n.Created ?? '',
    Labels: n.Labels ?? {},
    Options: n.Options ?? {},
    IPAM: { ...n.IPAM, Driver: n.IPAM?.Driver ?? 'default', Config: n.IPAM?.Config ?? [] },
    Containers: n.Containers ?? {},
  };
}

export async function listNetworks(engine: Engine): Promise<EngineNetwork[]> {
  return (await engine.listNetworks()).map(normalise);
}

export async function inspectNetwork(engine: Engine, id: string): Promise<EngineNetwork> {
  return normalise(await engine.inspectNetwork(id));
}

export interface NetworkSpec {
  name: string;
  driver: string;
  internal: boolean;
  attachable: boolean;
  enableIPv6: boolean;
  parent: string | null;
  pools: { Subnet: string; Gateway?: string; IPRange?: string }[];
}

export async function createNetwork(engine: Engine, spec: NetworkSpec): Promise<string> {
  return engine.createNetwork({
    Name: spec.name,
    Driver: spec.driver,
    Internal: spec.internal,
    Attachable: spec.attachable,
    EnableIPv6: spec.enableIPv6,
    ...(spec.parent ? { Options: { parent: spec.parent } } : {}),
    ...(spec.pools.length ? { IPAM: { Driver: 'default', Config: spec.pools } } : {}),
  });
}

/** Removes a network by its name or full id (an id prefix is 404). */
export async function removeNetwork(engine: Engine, id: string): Promise<void> {
  await engine.removeNetwork(id);
}
