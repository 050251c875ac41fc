import { z } from 'zod';
import { defineRoute } from '../route';
import { BatchItemResult, RemoveBatchBody } from './batch';

export const NETWORK_DRIVERS = ['bridge', 'macvlan', 'ipvlan'] as const;
export type NetworkDriver = (typeof NETWORK_DRIVERS)[number];

/** Network names and ids: letters, digits, _ . - (no slashes or dots-only paths reach the engine's URLs). */
export const NETWORK_NAME_PATTERN = /^[a-zA-Z0-9][a-zA-Z0-9_.-]*$/;
export const NetworkName = z
  .string()
  .trim()
  .min(1, 'Name is required.')
  .max(255, 'At most 255 characters.')
  .regex(NETWORK_NAME_PATTERN, 'Use letters, digits, _ . - (starting with a letter or digit).');

export const NetworkIpamConfig = z.looseObject({
  Subnet: z.string().optional(),
  Gateway: z.string().optional(),
  IPRange: z.string().optional(),
});

export const NetworkContainer = z.looseObject({
  Name: z.string(),
  EndpointID: z.string(),
  MacAddress: z.string(),
  IPv4Address: z.string(),
  IPv6Address: z.string(),
});
export type NetworkContainer = z.infer<typeof NetworkContainer>;

/** A network; engine fields pass through. `Containers` is filled only when one network is read. */
export const Network = z.looseObject({
  Id: z.string(),
  Name: z.string(),
  Driver: z.string(),
  Scope: z.string(),
  Attachable: z.boolean(),
  Internal: z.boolean(),
  EnableIPv6: z.boolean(),
  Created: z.string(),
  Labels: z.record(z.string(), z.string()),
  Options: z.record(z.string(), z.string()),
  IPAM: z.looseObject({ Driver: z.string(), Config: z.array(NetworkIpamConfig) }),
  Containers: z.record(z.string(), NetworkContainer),
  Project: z.string().nullable(),
  inUse: z.number().int(),
});
export type Network = z.infer<typeof Network>;

const optionalText = z.string().trim().max(64).nullish();

/**
 * The create form's payload. Addresses are checked by the server before the engine sees them
 * (CIDR syntax, no host bits, gateway and range inside their subnet, IPv6 only when enabled).
 * Empty strings mean "not set".
 */
export const CreateNetworkBody = z.strictObject({
  name: NetworkName,
  networkDriver: z.enum(NETWORK_DRIVERS).default('bridge'),
  internal: z.boolean().default(false),
  attachable: z.boolean().default(true),
  /** Parent interface: required for macvlan, optional for ipvlan, not allowed for bridge. */
  network_devices: optionalText,
  ipv4subnet: optionalText,
  ipv4gateway: optionalText,
  ipv4range: optionalText,
  ipv6_enabled: z.boolean().default(false),
  ipv6subnet: optionalText,
  ipv6gateway: optionalText,
  ipv6range: optionalText,
});
export type CreateNetworkBody = z.input<typeof CreateNetworkBody>;

export const NetworkIdParams = z.object({ id: NetworkName });

export const networkApi = {
  list: defineRoute({
    method: 'GET',
    role: 'viewer',
    path: '/api/resources/networks/',
    scope: 'environment',
    tag: 'networks',
    summary: 'Networks with their compose project and use count',
    response: z.array(Network),
  }),
  create: defineRoute({
    method: 'POST',
    role: 'operator',
    path: '/api/resources/networks/',
    scope: 'environment',
    tag: 'networks',
    summary: 'Create a bridge, macvlan or ipvlan network; returns the network list',
    body: CreateNetworkBody,
    response: z.array(Network),
  }),
  batch: defineRoute({
    method: 'POST',
    path: '/api/resources/networks/batch',
    scope: 'environment',
    tag: 'networks',
    batch: true,
    summary:
      'Remove many networks; one result per network (one with containers attached is refused, even with force) and the network list',
    role: 'operator',
    body: RemoveBatchBody,
    response: z.object({ results: z.array(BatchItemResult), networks: z.array(Network) }),
  }),
  get: defineRoute({
    method: 'GET',
    role: 'viewer',
    path: '/api/resources/networks/{id}',
    scope: 'environment',
    tag: 'networks',
    summary: 'One network (by id or name) with its attached containers',
    params: NetworkIdParams,
    response: Network,
  }),
  remove: defineRoute({
    method: 'DELETE',
    role: 'operator',
    path: '/api/resources/networks/{id}',
    scope: 'environment',
    tag: 'networks',
    summary:
      'Remove a network (409 with the engine reason while containers are attached or for built-in networks); returns it as it was',
    params: NetworkIdParams,
    response: Network,
  }),
};
