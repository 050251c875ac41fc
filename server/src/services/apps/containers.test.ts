import { describe, expect, it } from 'vitest';
import { exitMeaning } from './diagnosis';
import {
  appFromListEntry,
  healthFromState,
  healthFromStatus,
  listShowsImageId,
  portsFromList,
  recreateSpec,
  type ContainerDetail,
  type ContainerListEntry,
} from './containers';

const ID = 'a'.repeat(12) + 'b'.repeat(52);
const IMAGE_ID = `sha256:${'c'.repeat(64)}`;
const ANON = 'd'.repeat(64);

const listEntry: ContainerListEntry = {
  Id: ID,
  Names: ['/web', '/other/web-alias'],
  Image: 'nginx:latest',
  ImageID: IMAGE_ID,
  Command: 'nginx',
  Created: 1_714_564_800,
  Ports: [
    { IP: '0.0.0.0', PrivatePort: 80, PublicPort: 8080, Type: 'tcp' },
    { IP: '::', PrivatePort: 80, PublicPort: 8080, Type: 'tcp' },
    { PrivatePort: 443, Type: 'tcp' } as ContainerListEntry['Ports'][number],
  ],
  Labels: { 'com.docker.compose.project': 'site' },
  State: 'running',
  Status: 'Up 5 minutes',
  HostConfig: { NetworkMode: 'bridge' },
  NetworkSettings: { Networks: {} },
  Mounts: [],
};

describe('appFromListEntry', () => {
  it('builds the inspect-like shape from one list entry', () => {
    const app = appFromListEntry(listEntry, true);
    expect(app).toMatchObject({
      Id: ID,
      Name: '/web',
      name: 'web',
      short_id: ID.slice(0, 10),
      Created: '2024-05-01T12:00:00.000Z',
      State: { Status: 'running', Running: true },
      Config: { Image: 'nginx:latest', Labels: { 'com.docker.compose.project': 'site' } },
      isUpdatable: true,
    });
  });

  it("reads an exited entry's exit code from the engine's status text (issue 39 #5)", () => {
    const exited = (Status: string) => appFromListEntry({ ...listEntry, State: 'exited', Status }, false).State;
    expect(exited('Exited (137) 3 minutes ago')).toMatchObject({ Status: 'exited', ExitCode: 137 });
    expect(exited('Exited (0) About an hour ago').ExitCode).toBe(0);
    expect(appFromListEntry(listEntry, false).State.ExitCode).toBeNull();
  });

  it("reads health from the list's status text as docker ps shows it (issue 36)", () => {
    expect(healthFromStatus('Up 5 minutes (healthy)')).toBe('healthy');
    expect(healthFromStatus('Up 2 seconds (health: starting)')).toBe('starting');
    expect(healthFromStatus('Up About a minute (unhealthy)')).toBe('unhealthy');
    expect(healthFromStatus('Up 5 minutes (Paused)')).toBe('none');
    expect(healthFromStatus('Exited (1) 3 seconds ago')).toBe('none');
    expect(healthFromState({ Running: true, Health: { Status: 'healthy' } })).toBe('healthy');
    expect(healthFromState({ Running: false, Health: { Status: 'unhealthy' } })).toBe('none');
  });

  it('names what an exit code usually means (issue 36)', () => {
    expect(exitMeaning(0, false).kind).toBe('done');
    expect(exitMeaning(3, false)).toEqual({ kind: 'error', summary: 'Error: the main process exited with code 3.' });
    expect(exitMeaning(127, false).kind).toBe('command');
    expect(exitMeaning(137, false).kind).toBe('killed');
    expect(exitMeaning(137, true).kind).toBe('oom');
    expect(exitMeaning(139, false).kind).toBe('segfault');
    expect(exitMeaning(143, false).kind).toBe('terminated');
    expect(exitMeaning(130, false).summary).toContain('signal 2');
  });

  it('maps published ports like inspect does, unpublished ones to null', () => {
    expect(portsFromList(listEntry.Ports)).toEqual({
      '80/tcp': [
        { HostIp: '0.0.0.0', HostPort: '8080' },
        { HostIp: '::', HostPort: '8080' },
      ],
      '443/tcp': null,
    });
    expect(portsFromList([])).toEqual({});
  });

  it('puts the reference back where the engine shows the image ID', () => {
    const stale = { ...listEntry, Image: IMAGE_ID };
    expect(listShowsImageId(stale)).toBe(true);
    expect(listShowsImageId(listEntry)).toBe(false);
    expect(appFromListEntry(stale, false, 'nginx:latest').Config.Image).toBe('nginx:latest');
  });
});

function detail(): ContainerDetail {
  return {
    Id: ID,
    Name: '/web',
    Image: IMAGE_ID,
    State: { Running: true },
    Config: {
      Hostname: ID.slice(0, 12),
      Image: 'nginx:latest',
      Env: ['PATH=/usr/bin', 'NGINX_VERSION=1.25', 'SECRET=x'],
      Labels: { maintainer: 'nginx', 'local.berth.port.8080': 'Web' },
      Cmd: ['nginx', '-g', 'daemon off;'],
      ExposedPorts: { '80/tcp': {} },
      Volumes: { '/cache': {} },
    },
    HostConfig: {
      NetworkMode: 'appnet',
      PortBindings: { '80/tcp': [{ HostIp: '127.0.0.1', HostPort: '8080' }] },
      RestartPolicy: { Name: 'unless-stopped', MaximumRetryCount: 0 },
      Binds: ['data:/data'],
      Links: ['/db:/web/db'],
    },
    Mounts: [
      {
        Type: 'volume',
        Name: 'data',
        Source: '/var/lib/docker/volumes/data/_data',
        Destination: '/data',
        RW: true,
        Mode: 'z',
        Propagation: '',
      },
      {
        Type: 'volume',
        Name: ANON,
        Source: `/var/lib/docker/volumes/${ANON}/_data`,
        Destination: '/cache',
        RW: true,
        Mode: '',
        Propagation: '',
      },
    ],
    NetworkSettings: {
      Networks: {
        appnet: { Aliases: [ID.slice(0, 12), 'web'], IPAMConfig: null, Links: null, NetworkID: 'n1' },
        other: { Aliases: null, IPAMConfig: { IPv4Address: '10.1.0.5' }, Links: null, NetworkID: 'n2' },
      },
    },
  } as unknown as ContainerDetail;
}

describe('recreateSpec', () => {
  const oldImage = {
    Env: ['PATH=/usr/bin', 'NGINX_VERSION=1.25'],
    Labels: { maintainer: 'nginx' },
    Cmd: ['nginx', '-g', 'daemon off;'],
    ExposedPorts: { '80/tcp': {} },
  };

  it("keeps what was set for the container and leaves the old image's defaults to the new image", () => {
    const { create } = recreateSpec(detail(), oldImage, 'nginx:latest');
    expect(create.Image).toBe('nginx:latest');
    expect(create.Env).toEqual(['SECRET=x']);
    expect(create.Labels).toEqual({ 'local.berth.port.8080': 'Web' });
    expect(create.Cmd).toBeUndefined();
    expect(create.ExposedPorts).toBeUndefined();
    expect(create.Hostname).toBeUndefined();
    expect(create.HostConfig?.PortBindings).toEqual({ '80/tcp': [{ HostIp: '127.0.0.1', HostPort: '8080' }] });
    expect(create.HostConfig?.RestartPolicy).toEqual({ Name: 'unless-stopped', MaximumRetryCount: 0 });
    expect(create.HostConfig?.Binds).toEqual(['data:/data']);
  });

  it('copies everything when the old image is unknown', () => {
    const { create } = recreateSpec(detail(), null, 'nginx:latest');
    expect(create.Env).toEqual(['PATH=/usr/bin', 'NGINX_VERSION=1.25', 'SECRET=x']);
    expect(create.Labels).toEqual({ maintainer: 'nginx', 'local.berth.port.8080': 'Web' });
  });

  it('mounts anonymous volumes by name so their data carries over', () => {
    const { create } = recreateSpec(detail(), oldImage, 'nginx:latest');
    expect(create.HostConfig?.Mounts).toEqual([{ Type: 'volume', Source: ANON, Target: '/cache', ReadOnly: false }]);
  });

  it('joins the primary network at create and the others after, without the old short-ID alias', () => {
    const spec = recreateSpec(detail(), oldImage, 'nginx:latest');
    expect(spec.create.NetworkingConfig?.EndpointsConfig).toEqual({
      appnet: { Aliases: ['web'], IPAMConfig: null, Links: null, DriverOpts: undefined },
    });
    expect(spec.extraNetworks).toEqual([
      {
        name: 'other',
        endpoint: { Aliases: [], IPAMConfig: { IPv4Address: '10.1.0.5' }, Links: null, DriverOpts: undefined },
      },
    ]);
    expect(spec.create.HostConfig?.Links).toEqual(['db:db']);
  });

  it('adds no network config for host networking', () => {
    const d = detail();
    d.HostConfig.NetworkMode = 'host';
    (d.NetworkSettings as { Networks: object }).Networks = { host: { NetworkID: 'h' } };
    const spec = recreateSpec(d, oldImage, 'nginx:latest');
    expect(spec.create.NetworkingConfig).toBeUndefined();
    expect(spec.extraNetworks).toEqual([]);
  });
});
