import { describe, expect, it } from 'vitest';
import { cidrContainsIp, cidrsOverlap, cidrWithin, formatCidr, parseCidr, parseIp, reservedRange } from './cidr';

const cidr = (t: string) => {
  const c = parseCidr(t);
  if (!c) throw new Error(`not a CIDR: ${t}`);
  return c;
};
const ip = (t: string) => {
  const a = parseIp(t);
  if (!a) throw new Error(`not an address: ${t}`);
  return a;
};

describe('parseIp', () => {
  it('reads IPv4 dotted quads', () => {
    expect(parseIp('10.251.3.1')).toEqual({ version: 4, value: (10n << 24n) | (251n << 16n) | (3n << 8n) | 1n });
    expect(parseIp('0.0.0.0')?.value).toBe(0n);
    expect(parseIp('255.255.255.255')?.value).toBe(0xffffffffn);
  });

  it('refuses malformed IPv4', () => {
    for (const bad of ['300.1.1.1', '1.2.3', '1.2.3.4.5', '01.2.3.4', '1.2.3.-4', 'a.b.c.d', '', '1..2.3'])
      expect(parseIp(bad), bad).toBeNull();
  });

  it('reads IPv6 with compression and an embedded IPv4 tail', () => {
    expect(parseIp('::')?.value).toBe(0n);
    expect(parseIp('::1')?.value).toBe(1n);
    expect(parseIp('fd00:dead:beef::1')).toEqual({
      version: 6,
      value: (0xfd00n << 112n) | (0xdeadn << 96n) | (0xbeefn << 80n) | 1n,
    });
    expect(parseIp('::ffff:1.2.3.4')?.value).toBe((0xffffn << 32n) | 0x01020304n);
    expect(parseIp('1:2:3:4:5:6:7:8')?.value).toBe(0x00010002000300040005000600070008n);
  });

  it('refuses malformed IPv6', () => {
    for (const bad of [
      '1:::2',
      '1::2::3',
      ':1',
      '1:2:3:4:5:6:7:8:9',
      '12345::',
      'g::1',
      '1:2:3:4:5:6:7',
      'fe80::1%eth0',
      '::ffff:1.2.3',
    ]) {
      expect(parseIp(bad), bad).toBeNull();
    }
  });
});

describe('parseCidr', () => {
  it('reads blocks and flags host bits', () => {
    expect(cidr('10.251.7.0/24')).toMatchObject({ version: 4, prefix: 24, hostBitsSet: false });
    expect(cidr('10.0.0.1/24')).toMatchObject({ prefix: 24, hostBitsSet: true });
    expect(cidr('fd00:1::/64')).toMatchObject({ version: 6, prefix: 64, hostBitsSet: false });
    expect(cidr('0.0.0.0/0').network).toBe(0n);
  });

  it('refuses out-of-range prefixes and bad addresses', () => {
    for (const bad of [
      '10.0.0.0/33',
      '300.1.1.0/24',
      'fe80::/129',
      '10.0.0.0',
      '10.0.0.0/',
      '10.0.0.0/024',
      '10.0.0.0/24/1',
      'x/8',
    ]) {
      expect(parseCidr(bad), bad).toBeNull();
    }
  });
});

describe('containment and overlap', () => {
  it('knows which addresses lie in a block', () => {
    expect(cidrContainsIp(cidr('10.251.7.0/24'), ip('10.251.7.1'))).toBe(true);
    expect(cidrContainsIp(cidr('10.251.7.0/24'), ip('10.251.7.255'))).toBe(true);
    expect(cidrContainsIp(cidr('10.251.7.0/24'), ip('10.251.8.1'))).toBe(false);
    expect(cidrContainsIp(cidr('fd00:1::/64'), ip('fd00:1::1'))).toBe(true);
    expect(cidrContainsIp(cidr('fd00:1::/64'), ip('fd00:2::1'))).toBe(false);
    expect(cidrContainsIp(cidr('10.0.0.0/8'), ip('::1'))).toBe(false);
  });

  it('knows when one block lies inside another', () => {
    expect(cidrWithin(cidr('10.251.7.128/25'), cidr('10.251.7.0/24'))).toBe(true);
    expect(cidrWithin(cidr('10.251.7.0/24'), cidr('10.251.7.0/24'))).toBe(true);
    expect(cidrWithin(cidr('10.251.0.0/16'), cidr('10.251.7.0/24'))).toBe(false);
    expect(cidrWithin(cidr('10.251.8.0/25'), cidr('10.251.7.0/24'))).toBe(false);
  });

  it('detects overlapping blocks', () => {
    expect(cidrsOverlap(cidr('10.251.0.0/16'), cidr('10.251.7.0/24'))).toBe(true);
    expect(cidrsOverlap(cidr('10.251.6.0/24'), cidr('10.251.7.0/24'))).toBe(false);
    expect(cidrsOverlap(cidr('fd00::/8'), cidr('fd12:3456::/32'))).toBe(true);
  });
});

describe('formatCidr', () => {
  it('writes the network address of a block with host bits set', () => {
    expect(formatCidr(cidr('10.0.0.1/24'))).toBe('10.0.0.0/24');
    expect(formatCidr(cidr('fd00:1:0:0:0:0:0:5/64'))).toBe('fd00:1::/64');
    expect(formatCidr(cidr('fd00:0:1:0:0:1:0:0/128'))).toBe('fd00:0:1::1:0:0/128');
    expect(formatCidr(cidr('::/0'))).toBe('::/0');
  });
});

describe('reservedRange', () => {
  it('names the reserved block a subnet or address touches', () => {
    expect(reservedRange(cidr('127.0.0.0/8'))).toBe('127.0.0.0/8 (loopback)');
    expect(reservedRange(cidr('126.0.0.0/7'))).toBe('127.0.0.0/8 (loopback)');
    expect(reservedRange(parseIp('169.254.169.254')!)).toBe('169.254.0.0/16 (link-local)');
    expect(reservedRange(cidr('239.1.0.0/16'))).toBe('224.0.0.0/4 (multicast)');
    expect(reservedRange(cidr('fe80::/64'))).toBe('fe80::/10 (link-local)');
    expect(reservedRange(parseIp('::1')!)).toBe('::1/128 (loopback)');
    expect(reservedRange(cidr('10.251.0.0/16'))).toBeNull();
    expect(reservedRange(cidr('172.17.0.0/16'))).toBeNull();
    expect(reservedRange(cidr('fd00:1::/64'))).toBeNull();
  });
});
