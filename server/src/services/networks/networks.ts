import type { CreateNetworkBody, Network } from '@berth/contract';
import type { z } from 'zod';
import type { Engine } from '../../docker/engine';
import {
  createNetwork,
  inspectNetwork,
  listNetworks,
  removeNetwork,
  type EngineNetwork,
  type NetworkSpec,
} from './engine-networks';
import { PROJECT_LABEL } from '../../docker/names';
import { resourceUsage, type ResourceUsage } from '../apps/resource-usage';
import { appsPhrase, containerNames } from '../apps/container-users';
import { ConflictError, ValidationError } from '../../errors';
import {
  cidrContainsIp,
  cidrsOverlap,
  cidrWithin,
  formatCidr,
  parseCidr,
  parseIp,
  reservedRange,
  type IpVersion,
} from '../../lib/cidr';

export type CreateBody = z.output<typeof CreateNetworkBody>;
type FieldError = { field: string; message: string };

const PREDEFINED = new Set(['bridge', 'host', 'none']);
/** Linux interface names: up to 15 characters, no slash, colon or space (VLAN parents like eth0.10 are fine). */
const INTERFACE = /^[a-zA-Z0-9][a-zA-Z0-9_.@-]{0,14}$/;

function withUsage(n: EngineNetwork, usage: ResourceUsage): Network {
  return { ...n, Project: n.Labels[PROJECT_LABEL] ?? null, inUse: usage.networks.get(n.Id) ?? 0 };
}

const blank = (v: string | null | undefined) => (v && v.trim() ? v.trim() : null);

/** Checks one address family (subnet, gateway, range) and returns its IPAM pool, or null when no subnet is set. */
function addressPool(version: IpVersion, body: CreateBody, errors: FieldError[]): NetworkSpec['pools'][number] | null {
  const label = `IPv${version}`;
  const fields = {
    subnet: `ipv${version}subnet`,
    gateway: `ipv${version}gateway`,
    range: `ipv${version}range`,
  } as const;
  const subnetText = blank(body[fields.subnet]);
  const gatewayText = blank(body[fields.gateway]);
  const rangeText = blank(body[fields.range]);
  const example = version === 4 ? '10.251.0.0/24' : 'fd00:beef::/64';
  if (!subnetText) {
    if (gatewayText) errors.push({ field: fields.gateway, message: `An ${label} gateway needs an ${label} subnet.` });
    if (rangeText) errors.push({ field: fields.range, message: `An ${label} range needs an ${label} subnet.` });
    return null;
  }
  const subnet = parseCidr(subnetText);
  if (!subnet || subnet.version !== version) {
    errors.push({
      field: fields.subnet,
      message: `'${subnetText}' is not an ${label} subnet in CIDR form (e.g. ${example}).`,
    });
    return null;
  }
  if (subnet.hostBitsSet) {
    errors.push({
      field: fields.subnet,
      message: `'${subnetText}' has host bits set; the subnet is ${formatCidr(subnet)}.`,
    });
    return null;
  }
  const pool: NetworkSpec['pools'][number] = { Subnet: formatCidr(subnet) };
  const reserved = (what: string, range: string) =>
    `${what} lies in the reserved block ${range}; a network there would put such an address on a host interface. Choose a private range (e.g. ${example}).`;
  const subnetReserved = reservedRange(subnet);
  if (subnetReserved) errors.push({ field: fields.subnet, message: reserved(`Subnet ${pool.Subnet}`, subnetReserved) });
  if (gatewayText) {
    const gateway = parseIp(gatewayText);
    const gatewayReserved = gateway && reservedRange(gateway);
    if (!gateway || gateway.version !== version)
      errors.push({ field: fields.gateway, message: `'${gatewayText}' is not an ${label} address.` });
    else if (gatewayReserved)
      errors.push({ field: fields.gateway, message: reserved(`Gateway ${gatewayText}`, gatewayReserved) });
    else if (!cidrContainsIp(subnet, gateway))
      errors.push({ field: fields.gateway, message: `Gateway ${gatewayText} is outside the subnet ${pool.Subnet}.` });
    else if (gateway.value === subnet.network)
      errors.push({ field: fields.gateway, message: `Gateway ${gatewayText} is the subnet's own network address.` });
    else pool.Gateway = gatewayText;
  }
  if (rangeText) {
    const range = parseCidr(rangeText);
    if (!range || range.version !== version)
      errors.push({ field: fields.range, message: `'${rangeText}' is not an ${label} range in CIDR form.` });
    else if (range.hostBitsSet)
      errors.push({
        field: fields.range,
        message: `'${rangeText}' has host bits set; the range is ${formatCidr(range)}.`,
      });
    else if (!cidrWithin(range, subnet))
      errors.push({ field: fields.range, message: `Range ${rangeText} is not inside the subnet ${pool.Subnet}.` });
    else if (reservedRange(range))
      errors.push({ field: fields.range, message: reserved(`Range ${formatCidr(range)}`, reservedRange(range)!) });
    else pool.IPRange = formatCidr(range);
  }
  return pool;
}

/** Turns the create form into an engine request, or throws one 400 naming every bad field. */
export function networkSpec(body: CreateBody): NetworkSpec {
  const errors: FieldError[] = [];
  const parent = blank(body.network_devices);
  if (body.networkDriver === 'macvlan' && !parent) {
    errors.push({
      field: 'network_devices',
      message: 'A macvlan network needs the host network interface it attaches to (e.g. eth0).',
    });
  }
  if (body.networkDriver === 'bridge' && parent) {
    errors.push({
      field: 'network_devices',
      message: 'Only macvlan and ipvlan networks take a parent network interface.',
    });
  }
  if (parent && !INTERFACE.test(parent))
    errors.push({ field: 'network_devices', message: `'${parent}' is not a network interface name.` });

  const pools: NetworkSpec['pools'] = [];
  const v4 = addressPool(4, body, errors);
  if (v4) pools.push(v4);
  const v6Fields = ['ipv6subnet', 'ipv6gateway', 'ipv6range'] as const;
  if (!body.ipv6_enabled) {
    for (const f of v6Fields)
      if (blank(body[f])) errors.push({ field: f, message: 'Enable IPv6 to set IPv6 addresses.' });
  } else {
    const v6 = addressPool(6, body, errors);
    if (v6) pools.push(v6);
  }
  if (errors.length) throw new ValidationError(errors.map((e) => e.message).join(' '), errors);
  return {
    name: body.name,
    driver: body.networkDriver,
    internal: body.internal,
    attachable: body.attachable,
    enableIPv6: body.ipv6_enabled,
    parent,
    pools,
  };
}

/** A name or subnet another network already has is a 409 before the engine is asked. */
function checkConflicts(spec: NetworkSpec, existing: EngineNetwork[]): void {
  if (PREDEFINED.has(spec.name)) throw new ConflictError(`${spec.name} is a built-in network name.`);
  const same = existing.find((n) => n.Name === spec.name);
  if (same) throw new ConflictError(`A network named ${spec.name} already exists.`);
  for (const pool of spec.pools) {
    const mine = parseCidr(pool.Subnet);
    for (const n of existing) {
      for (const cfg of n.IPAM.Config) {
        const theirs = cfg.Subnet ? parseCidr(cfg.Subnet) : null;
        if (mine && theirs && cidrsOverlap(mine, theirs)) {
          throw new ConflictError(`Subnet ${pool.Subnet} overlaps ${cfg.Subnet} of network ${n.Name}.`);
        }
      }
    }
  }
}

export class NetworksService {
  constructor(private readonly docker: Engine) {}

  async list(): Promise<Network[]> {
    const [networks, usage] = await Promise.all([listNetworks(this.docker), resourceUsage(this.docker)]);
    return networks.map((n) => withUsage(n, usage));
  }

  async get(id: string): Promise<Network> {
    const [network, usage] = await Promise.all([inspectNetwork(this.docker, id), resourceUsage(this.docker)]);
    return withUsage(network, usage);
  }

  async create(body: CreateBody): Promise<Network[]> {
    const spec = networkSpec(body);
    checkConflicts(spec, await listNetworks(this.docker));
    await createNetwork(this.docker, spec);
    return this.list();
  }

  async remove(id: string): Promise<Network> {
    const network = await this.get(id);
    try {
      // By the name or id the caller gave: an id prefix is refused there, before anything is deleted.
      await removeNetwork(this.docker, id);
    } catch (err) {
      if (!(err instanceof ConflictError) || PREDEFINED.has(network.Name)) throw err;
      const users = await containerNames(this.docker, { network: [network.Id] });
      const attached = users.length ? users : Object.values(network.Containers).map((c) => c.Name);
      throw attached.length
        ? new ConflictError(
            `Network ${network.Name} is in use by ${appsPhrase(attached)}; disconnect or remove it first.`,
          )
        : err;
    }
    return network;
  }
}
