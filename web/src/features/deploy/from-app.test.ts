import { describe, expect, it } from 'vitest';
import { DeployBody, type App } from '@berth/contract';
import { toPayload } from './form-model';
import { fromApp } from './from-app';

const app = (over: { Config?: object; HostConfig?: object; Mounts?: App['Mounts'] } = {}): App =>
  ({
    Id: 'f00d',
    Name: '/web',
    Created: '2024-01-01T00:00:00Z',
    Image: 'sha256:abc',
    name: 'web',
    short_id: 'f00d',
    ports: {},
    isUpdatable: false,
    health: 'none',
    State: { Status: 'exited' },
    NetworkSettings: { Ports: {}, Networks: {} },
    Config: { Image: 'nginx:1.27', Labels: {}, Env: [], Cmd: null, ...over.Config },
    HostConfig: { NetworkMode: 'bridge', RestartPolicy: { Name: 'unless-stopped' }, ...over.HostConfig },
    Mounts: over.Mounts ?? [],
  }) as App;

describe('fromApp', () => {
  it('takes ports from the configured bindings (a stopped app keeps them) with their display labels', () => {
    const v = fromApp(
      app({
        Config: { Labels: { 'local.berth.port.8080': 'Web UI', 'local.yacht.port.5353': 'DNS' } },
        HostConfig: {
          PortBindings: {
            '80/tcp': [
              { HostIp: '', HostPort: '8080' },
              { HostIp: '::', HostPort: '8080' },
            ],
            '53/udp': [{ HostIp: '', HostPort: '5353' }],
            '9000/tcp': [{ HostIp: '', HostPort: '' }],
          },
        },
      }),
    );
    expect(v.ports).toEqual([
      { label: 'Web UI', host_ip: '', hport: '8080', cport: '80', proto: 'tcp' },
      { label: 'Web UI', host_ip: '::', hport: '8080', cport: '80', proto: 'tcp' },
      { label: 'DNS', host_ip: '', hport: '5353', cport: '53', proto: 'udp' },
      { label: '', host_ip: '', hport: '', cport: '9000', proto: 'tcp' },
    ]);
  });

  it('round-trips every binding exactly: host IPs and several bindings per container port (issue 39 #1)', () => {
    const PortBindings = {
      '80/tcp': [
        { HostIp: '127.0.0.1', HostPort: '18502' },
        { HostIp: '::1', HostPort: '18502' },
        { HostIp: '', HostPort: '18503' },
      ],
      '53/udp': [{ HostIp: '10.0.0.1', HostPort: '' }],
    };
    const payload = toPayload(fromApp(app({ HostConfig: { PortBindings } })), 'web');
    const spec = DeployBody.parse(payload).ports.map((p) => [`${p.cport}/${p.proto}`, p.host_ip ?? '', p.hport]);
    expect(spec).toEqual([
      ['80/tcp', '127.0.0.1', 18502],
      ['80/tcp', '::1', 18502],
      ['80/tcp', '', 18503],
      ['53/udp', '10.0.0.1', null],
    ]);
  });

  it('shows NanoCpus as cores and Memory in the largest exact unit', () => {
    expect(fromApp(app({ HostConfig: { NanoCpus: 1_500_000_000, Memory: 64 * 1024 * 1024 } }))).toMatchObject({
      cpus: '1.5',
      mem_limit: '64m',
    });
    expect(fromApp(app({ HostConfig: { NanoCpus: 0, Memory: 1000 } }))).toMatchObject({ cpus: '', mem_limit: '1000b' });
    expect(fromApp(app({ HostConfig: { Memory: 2 * 1024 ** 3 } })).mem_limit).toBe('2g');
  });

  it('keeps env values that contain = whole and leaves out what the image itself sets', () => {
    const v = fromApp(app({ Config: { Env: ['PATH=/usr/bin', 'OPTS=a=b=c', 'EMPTY='] } }), {
      Env: ['PATH=/usr/bin'],
      Cmd: null,
      Entrypoint: null,
      ExposedPorts: null,
      Labels: null,
    });
    expect(v.env.map((e) => [e.name, e.default])).toEqual([
      ['OPTS', 'a=b=c'],
      ['EMPTY', ''],
    ]);
  });

  it('keeps user labels and drops engine, compose, port-label and image labels', () => {
    const v = fromApp(
      app({
        Config: {
          Labels: {
            'berth.test': '1',
            'com.docker.compose.project': 'x',
            'local.berth.port.80': 'Web',
            'local.yacht.port.81': 'Old',
            'org.opencontainers.image.title': 'nginx',
          },
        },
      }),
      {
        Labels: { 'org.opencontainers.image.title': 'nginx' },
        Env: null,
        Cmd: null,
        Entrypoint: null,
        ExposedPorts: null,
      },
    );
    expect(v.labels).toEqual([{ label: 'berth.test', value: '1' }]);
  });

  it('reads command, devices, sysctls, capabilities and restart policy from the configuration', () => {
    const v = fromApp(
      app({
        Config: { Cmd: ['sh', '-c', 'sleep 3600'] },
        HostConfig: {
          RestartPolicy: { Name: 'no' },
          Devices: [{ PathOnHost: '/dev/null', PathInContainer: '/dev/x', CgroupPermissions: 'rwm' }],
          Sysctls: { 'net.ipv4.ip_forward': '1' },
          CapAdd: ['NET_ADMIN', 'CAP_SYS_TIME'],
        },
      }),
      { Cmd: ['sh'], Env: null, Entrypoint: null, ExposedPorts: null, Labels: null },
    );
    expect(v).toMatchObject({
      command: ['sh', '-c', 'sleep 3600'],
      restart_policy: 'none',
      devices: [{ container: '/dev/x', host: '/dev/null' }],
      sysctls: [{ name: 'net.ipv4.ip_forward', value: '1' }],
      cap_add: ['NET_ADMIN', 'SYS_TIME'],
    });
  });

  it("leaves the command empty when it is the image's default", () => {
    expect(
      fromApp(app({ Config: { Cmd: ['nginx', '-g', 'daemon off;'] } }), {
        Cmd: ['nginx', '-g', 'daemon off;'],
        Env: null,
        Entrypoint: null,
        ExposedPorts: null,
        Labels: null,
      }).command,
    ).toEqual([]);
  });

  it('reads binds, then named and bind mounts, skipping anonymous volumes', () => {
    const v = fromApp(app({ HostConfig: { Binds: ['/srv/web:/data:ro', 'webvol:/cache'] } }));
    expect(v.volumes).toEqual([
      { bind: '/srv/web', container: '/data', readonly: true },
      { bind: 'webvol', container: '/cache', readonly: false },
    ]);
    const m = fromApp(
      app({
        Mounts: [
          { Type: 'volume', Name: 'a'.repeat(64), Source: '/var/lib/docker/volumes/x/_data', Destination: '/anon' },
          { Type: 'volume', Name: 'named', Source: '/var/lib/docker/volumes/named/_data', Destination: '/named' },
          { Type: 'bind', Source: '/etc/hosts', Destination: '/h', RW: false } as NonNullable<App['Mounts']>[number],
        ],
      }),
    );
    expect(m.volumes).toEqual([
      { bind: 'named', container: '/named', readonly: false },
      { bind: '/etc/hosts', container: '/h', readonly: true },
    ]);
  });

  it('maps the network mode: built-in modes to Network Mode, a user network to Network', () => {
    expect(fromApp(app({ HostConfig: { NetworkMode: 'host' } }))).toMatchObject({ network: '', network_mode: 'host' });
    expect(fromApp(app({ HostConfig: { NetworkMode: 'proxy-net' } }))).toMatchObject({
      network: 'proxy-net',
      network_mode: '',
    });
    expect(fromApp(app({ HostConfig: { NetworkMode: 'default' } }))).toMatchObject({ network: '', network_mode: '' });
  });
});
