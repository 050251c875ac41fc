import type { Network } from '@berth/contract';
import type { DockerClient } from './client';
import { engineCall } from './client';
import type { Without } from './images';
import { ConflictError, EngineError } from '../errors';

export type EngineNetwork = Without<Network, 'inUse' | 'Project'>;

interface RawNetwork {
  Id: string;
  Name: string;
  Driver: string;
  Scope: string;
  Attachable?: boolean;
  Internal?: boolean;
  EnableIPv6?: boolean;
  Created?: string;
  Labels?: Record<string, string> | null;
  Options?: Record<string, string> | null;
  IPAM?: { Driver?: string; Config?: { Subnet?: string; Gateway?: string; IPRange?: string }[] | null; Options?: unknown } | null;
  Containers?: Record<string, { Name: string; EndpointID: string; MacAddress: string; IPv4Address: string; IPv6Address: string }> | null;
}

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

export async function listNetworks(docker: DockerClient): Promise<EngineNetwork[]> {
  const list = (await engineCall(() => docker.listNetworks())) as RawNetwork[];
  return list.map(normalise);
}

export async function inspectNetwork(docker: DockerClient, id: string): Promise<EngineNetwork> {
  return normalise((await engineCall(() => docker.getNetwork(id).inspect())) as RawNetwork);
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

export async function createNetwork(docker: DockerClient, spec: NetworkSpec): Promise<string> {
  const net = await engineCall(() =>
    docker.createNetwork({
      Name: spec.name,
      Driver: spec.driver,
      CheckDuplicate: true,
      Internal: spec.internal,
      Attachable: spec.attachable,
      EnableIPv6: spec.enableIPv6,
      ...(spec.parent ? { Options: { parent: spec.parent } } : {}),
      ...(spec.pools.length ? { IPAM: { Driver: 'default', Config: spec.pools } } : {}),
    }),
  );
  return net.id;
}

/** Removes a network. Engines before API 1.42 answer 403 for "still in use" and built-ins; both mean conflict. */
export async function removeNetwork(docker: DockerClient, id: string): Promise<void> {
  try {
    await engineCall(() => docker.getNetwork(id).remove());
  } catch (err) {
    if (err instanceof EngineError && err.statusCode === 403) throw new ConflictError(err.message);
    throw err;
  }
}
