/**
 * IPv4/IPv6 addresses and CIDR blocks as big integers: enough to check a network create form
 * (syntax, host bits, "inside this subnet", overlap) before the engine sees it.
 */
export type IpVersion = 4 | 6;

export interface IpAddress {
  version: IpVersion;
  value: bigint;
}

export interface Cidr {
  version: IpVersion;
  /** The first address of the block. */
  network: bigint;
  prefix: number;
  /** Whether the text had bits set after the prefix (e.g. 10.0.0.1/24). */
  hostBitsSet: boolean;
}

const BITS: Record<IpVersion, number> = { 4: 32, 6: 128 };

function parseIpv4(text: string): bigint | null {
  const parts = text.split('.');
  if (parts.length !== 4) return null;
  let value = 0n;
  for (const part of parts) {
    // No leading zeros: "010" means octal to some tools and decimal to others.
    if (!/^(0|[1-9][0-9]{0,2})$/.test(part)) return null;
    const n = Number(part);
    if (n > 255) return null;
    value = (value << 8n) | BigInt(n);
  }
  return value;
}

function parseIpv6(text: string): bigint | null {
  if (!/^[0-9a-fA-F:.]+$/.test(text)) return null;
  let head = text;
  let tailV4: bigint | null = null;
  const lastColon = text.lastIndexOf(':');
  if (text.includes('.')) {
    // An embedded IPv4 tail (::ffff:1.2.3.4) stands for the last two groups.
    tailV4 = parseIpv4(text.slice(lastColon + 1));
    if (tailV4 === null) return null;
    head = text.slice(0, lastColon + 1) + '0:0';
  }
  const halves = head.split('::');
  if (halves.length > 2) return null;
  const toGroups = (s: string) => (s === '' ? [] : s.split(':'));
  const left = toGroups(halves[0]!);
  const right = halves.length === 2 ? toGroups(halves[1]!) : [];
  const missing = 8 - left.length - right.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return null;
  const groups = [...left, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...right];
  let value = 0n;
  for (const g of groups) {
    if (!/^[0-9a-fA-F]{1,4}$/.test(g)) return null;
    value = (value << 16n) | BigInt(parseInt(g, 16));
  }
  if (tailV4 !== null) value = (value & ~0xffffffffn) | tailV4;
  return value;
}

/** Parses a plain address (no prefix); null when it is not one. */
export function parseIp(text: string): IpAddress | null {
  const t = text.trim();
  if (t.includes(':')) {
    const value = parseIpv6(t);
    return value === null ? null : { version: 6, value };
  }
  const value = parseIpv4(t);
  return value === null ? null : { version: 4, value };
}

function mask(version: IpVersion, prefix: number): bigint {
  const bits = BigInt(BITS[version]);
  return ((1n << bits) - 1n) ^ ((1n << (bits - BigInt(prefix))) - 1n);
}

/** Parses `address/prefix`; null when either part is malformed or the prefix is out of range. */
export function parseCidr(text: string): Cidr | null {
  const m = text.trim().match(/^([^/]+)\/([0-9]{1,3})$/);
  if (!m) return null;
  const ip = parseIp(m[1]!);
  if (!ip) return null;
  const prefix = Number(m[2]);
  if (prefix > BITS[ip.version] || (m[2]!.length > 1 && m[2]!.startsWith('0'))) return null;
  const network = ip.value & mask(ip.version, prefix);
  return { version: ip.version, network, prefix, hostBitsSet: network !== ip.value };
}

/** The last address of a block. */
function lastAddress(c: Cidr): bigint {
  return c.network | ((1n << BigInt(BITS[c.version] - c.prefix)) - 1n);
}

export function cidrContainsIp(c: Cidr, ip: IpAddress): boolean {
  return c.version === ip.version && ip.value >= c.network && ip.value <= lastAddress(c);
}

/** Whether `inner` lies wholly inside `outer`. */
export function cidrWithin(inner: Cidr, outer: Cidr): boolean {
  return (
    inner.version === outer.version &&
    inner.prefix >= outer.prefix &&
    inner.network >= outer.network &&
    lastAddress(inner) <= lastAddress(outer)
  );
}

export function cidrsOverlap(a: Cidr, b: Cidr): boolean {
  return a.version === b.version && a.network <= lastAddress(b) && b.network <= lastAddress(a);
}

/** Writes an address back as text (IPv6 with the longest zero run compressed). */
export function formatIp(version: IpVersion, value: bigint): string {
  if (version === 4) return [24n, 16n, 8n, 0n].map((s) => String((value >> s) & 0xffn)).join('.');
  const groups = Array.from({ length: 8 }, (_, i) => ((value >> BigInt(112 - i * 16)) & 0xffffn).toString(16));
  let best = { start: -1, len: 0 };
  for (let i = 0; i < 8;) {
    let j = i;
    while (j < 8 && groups[j] === '0') j++;
    if (j - i > best.len && j - i > 1) best = { start: i, len: j - i };
    i = j === i ? i + 1 : j;
  }
  if (best.start === -1) return groups.join(':');
  return `${groups.slice(0, best.start).join(':')}::${groups.slice(best.start + best.len).join(':')}`;
}

export function formatCidr(c: Cidr): string {
  return `${formatIp(c.version, c.network)}/${c.prefix}`;
}

/**
 * Blocks a Docker network must never take: giving a bridge an address there puts a loopback,
 * link-local or multicast address on a host interface (and can shadow the host's own).
 */
const RESERVED: { cidr: Cidr; what: string }[] = [
  ['0.0.0.0/8', '"this network"'],
  ['127.0.0.0/8', 'loopback'],
  ['169.254.0.0/16', 'link-local'],
  ['224.0.0.0/4', 'multicast'],
  ['::/128', 'the unspecified address'],
  ['::1/128', 'loopback'],
  ['::ffff:0:0/96', 'IPv4-mapped'],
  ['fe80::/10', 'link-local'],
  ['ff00::/8', 'multicast'],
].map(([text, what]) => ({ cidr: parseCidr(text!)!, what: what! }));

/** The reserved block (e.g. "127.0.0.0/8 (loopback)") a block or address touches, or null. */
export function reservedRange(target: Cidr | IpAddress): string | null {
  const block: Cidr =
    'prefix' in target
      ? target
      : { version: target.version, network: target.value, prefix: BITS[target.version], hostBitsSet: false };
  const hit = RESERVED.find((r) => cidrsOverlap(r.cidr, block));
  return hit ? `${formatCidr(hit.cidr)} (${hit.what})` : null;
}
