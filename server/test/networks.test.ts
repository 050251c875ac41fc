import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiError, Network } from '@berth/contract';
import { createTestApp, type TestApp } from './helpers/app';
import { dockerCli, testEngine } from './helpers/engine';
import { cleanup, exists, uniqueName } from './images-fixtures';

const BASE = '/api/resources/networks/';
/** 10.251.<n>.0/24 with n random per run, far from the engine's own pools (10.213/10.214+). */
const octet = 1 + Math.floor(Math.random() * 200);
const net24 = (offset: number) => `10.251.${octet + offset}`;

const networkIds = () => new Set(dockerCli(['network', 'ls', '-q', '--no-trunc']).trim().split('\n'));

describe('networks', () => {
  let t: TestApp;
  const networks: string[] = [];
  const containers: string[] = [];

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    cleanup('container', ...containers);
    cleanup('network', ...networks);
    await t?.close();
  });

  it('creates a bridge network with subnet, gateway and range, shows it and deletes it', async () => {
    const name = uniqueName('networks');
    networks.push(name);
    const p = net24(0);
    const created = await t.client.post<Network[]>(BASE, {
      name,
      networkDriver: 'bridge',
      internal: true,
      attachable: true,
      network_devices: '',
      ipv4subnet: `${p}.0/24`,
      ipv4gateway: `${p}.1`,
      ipv4range: `${p}.128/25`,
      ipv6_enabled: false,
    });
    expect(created.status).toBe(200);
    const listed = created.body.find((n) => n.Name === name);
    expect(listed).toMatchObject({ Driver: 'bridge', Internal: true, Attachable: true, inUse: 0, Project: null });
    const engineView = JSON.parse(
      dockerCli(['network', 'inspect', '--format', '{{json .IPAM.Config}}', name]),
    ) as unknown;
    expect(engineView).toEqual([{ Subnet: `${p}.0/24`, Gateway: `${p}.1`, IPRange: `${p}.128/25` }]);

    const one = await t.client.get<Network>(`${BASE}${listed!.Id}`);
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ Name: name, Scope: 'local', EnableIPv6: false, Containers: {} });
    expect(one.body.IPAM.Config[0]).toMatchObject({ Subnet: `${p}.0/24`, Gateway: `${p}.1` });

    const removed = await t.client.delete<Network>(`${BASE}${name}`);
    expect(removed.status).toBe(200);
    expect(removed.body.Id).toBe(listed!.Id);
    expect(exists('network', name)).toBe(false);
    const gone = await t.client.get<ApiError>(`${BASE}${name}`);
    expect(gone.status).toBe(404);
  });

  it('creates a dual-stack network when IPv6 is enabled', async () => {
    const name = uniqueName('networks');
    networks.push(name);
    const p = net24(1);
    const v6 = `fd00:251:${octet.toString(16)}::`;
    const res = await t.client.post<Network[]>(BASE, {
      name,
      networkDriver: 'bridge',
      ipv4subnet: `${p}.0/24`,
      ipv6_enabled: true,
      ipv6subnet: `${v6}/64`,
      ipv6gateway: `${v6}1`,
      ipv6range: `${v6}/80`,
    });
    expect(res.status).toBe(200);
    const engineView = JSON.parse(dockerCli(['network', 'inspect', '--format', '{{json .}}', name])) as Network;
    expect(engineView.EnableIPv6).toBe(true);
    expect(engineView.IPAM.Config).toEqual([
      { Subnet: `${p}.0/24` },
      { Subnet: `${v6}/64`, Gateway: `${v6}1`, IPRange: `${v6}/80` },
    ]);
  });

  it('shows attached containers and refuses to delete a network in use', async () => {
    const name = uniqueName('networks');
    const container = uniqueName('networks-c');
    networks.push(name);
    containers.push(container);
    dockerCli([
      'network',
      'create',
      '--label',
      'berth.test=1',
      '--label',
      'com.docker.compose.project=berth-t-proj',
      '--subnet',
      `${net24(2)}.0/24`,
      name,
    ]);
    dockerCli([
      'run',
      '-d',
      '--name',
      container,
      '--label',
      'berth.test=1',
      '--network',
      name,
      testEngine().image,
      'sleep',
      '300',
    ]);

    const one = await t.client.get<Network>(`${BASE}${name}`);
    expect(one.body).toMatchObject({ inUse: 1, Project: 'berth-t-proj' });
    const attached = Object.values(one.body.Containers);
    expect(attached).toHaveLength(1);
    expect(attached[0]).toMatchObject({ Name: container });
    expect(attached[0]!.IPv4Address).toMatch(new RegExp(`^${net24(2).replace(/\./g, '\\.')}\\.\\d+/24$`));

    const list = await t.client.get<Network[]>(BASE);
    expect(list.body.find((n) => n.Name === name)).toMatchObject({ inUse: 1, Project: 'berth-t-proj' });

    const refused = await t.client.delete<ApiError>(`${BASE}${name}`);
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toMatch(/is in use by app berth-t-networks-c-.*; disconnect or remove it first/);
    expect(exists('network', name)).toBe(true);
  });

  it('refuses bad addresses and driver rules with 400 before the engine creates anything', async () => {
    const p = net24(3);
    const name = uniqueName('networks');
    const bad: [Record<string, unknown>, string][] = [
      [{ ipv4subnet: '10.0.0.0/33' }, 'ipv4subnet'],
      [{ ipv4subnet: '300.1.1.0/24' }, 'ipv4subnet'],
      [{ ipv4subnet: `${p}.1/24` }, 'ipv4subnet'],
      [{ ipv4subnet: 'fd00::/64' }, 'ipv4subnet'],
      [{ ipv4subnet: `${p}.0/24`, ipv4gateway: '10.99.0.1' }, 'ipv4gateway'],
      [{ ipv4subnet: `${p}.0/24`, ipv4gateway: `${p}.0` }, 'ipv4gateway'],
      [{ ipv4subnet: `${p}.0/24`, ipv4range: '10.99.0.0/25' }, 'ipv4range'],
      [{ ipv4gateway: `${p}.1` }, 'ipv4gateway'],
      [{ ipv6subnet: 'fd00:1::/64' }, 'ipv6subnet'],
      [{ ipv6_enabled: true, ipv6subnet: 'fe80::/129' }, 'ipv6subnet'],
      [{ ipv6_enabled: true, ipv6subnet: 'fd00:1::/64', ipv6gateway: 'fd00:2::1' }, 'ipv6gateway'],
      [{ networkDriver: 'macvlan' }, 'network_devices'],
      [{ networkDriver: 'bridge', network_devices: 'eth0' }, 'network_devices'],
      [{ networkDriver: 'ipvlan', network_devices: 'eth0/../x' }, 'network_devices'],
    ];
    const before = networkIds();
    for (const [extra, field] of bad) {
      const res = await t.client.post<ApiError>(BASE, { name, ...extra });
      expect(res.status, JSON.stringify(extra)).toBe(400);
      expect(res.body.code).toBe('validation_error');
      expect(
        res.body.fields?.map((f) => f.field),
        JSON.stringify(extra),
      ).toContain(field);
    }
    for (const body of [
      { name, networkDriver: 'overlay' },
      { name: 'bad name' },
      { name, Options: { 'com.docker.network.bridge.name': 'eth0' } },
      {},
    ]) {
      const res = await t.client.post<ApiError>(BASE, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    expect(networkIds()).toEqual(before);
    expect(exists('network', name)).toBe(false);
  });

  it('refuses loopback, link-local, multicast and "this network" ranges with 400 before the engine is called', async () => {
    const name = uniqueName('networks');
    const bad: [Record<string, unknown>, string][] = [
      [{ ipv4subnet: '127.0.0.0/8' }, 'ipv4subnet'],
      [{ ipv4subnet: '127.10.0.0/24', ipv4gateway: '127.10.0.1', ipv4range: '127.10.0.128/25' }, 'ipv4gateway'],
      [{ ipv4subnet: '0.0.0.0/24' }, 'ipv4subnet'],
      [{ ipv4subnet: '169.254.10.0/24' }, 'ipv4subnet'],
      [{ ipv4subnet: '224.1.0.0/16' }, 'ipv4subnet'],
      [{ ipv4subnet: '96.0.0.0/3' }, 'ipv4subnet'],
      [{ ipv6_enabled: true, ipv6subnet: '::1/128' }, 'ipv6subnet'],
      [{ ipv6_enabled: true, ipv6subnet: 'fe80::/64', ipv6gateway: 'fe80::1' }, 'ipv6gateway'],
    ];
    const before = networkIds();
    for (const [extra, field] of bad) {
      const res = await t.client.post<ApiError>(BASE, { name, networkDriver: 'bridge', ...extra });
      expect(res.status, JSON.stringify(extra)).toBe(400);
      expect(res.body.code).toBe('validation_error');
      expect(
        res.body.fields?.map((f) => f.field),
        JSON.stringify(extra),
      ).toContain(field);
      expect(res.body.detail).toMatch(/reserved block/);
    }
    expect(networkIds()).toEqual(before);
    expect(exists('network', name)).toBe(false);
  });

  it('refuses a built-in name, a taken name and an overlapping subnet with 409', async () => {
    const taken = uniqueName('networks');
    networks.push(taken);
    dockerCli(['network', 'create', '--label', 'berth.test=1', '--subnet', `${net24(4)}.0/24`, taken]);
    const before = networkIds();
    const cases = [
      { name: 'bridge', ipv4subnet: `${net24(5)}.0/24` },
      { name: taken },
      { name: uniqueName('networks'), ipv4subnet: `${net24(4)}.128/25` },
    ];
    for (const body of cases) {
      const res = await t.client.post<ApiError>(BASE, body);
      expect(res.status, JSON.stringify(body)).toBe(409);
      expect(res.body.detail.length).toBeGreaterThan(10);
    }
    expect(networkIds()).toEqual(before);
  });

  it('refuses to delete a built-in network with 409', async () => {
    const res = await t.client.delete<ApiError>(`${BASE}host`);
    expect(res.status).toBe(409);
    expect(exists('network', 'host')).toBe(true);
  });
});
