import { describe, expect, it } from 'vitest';
import type { App } from '@berth/contract';
import {
  busyText,
  commandOf,
  envRows,
  healthcheckCommand,
  healthDuration,
  isBerthImage,
  networkRows,
  portChips,
  portRows,
  projectOf,
  statusText,
} from './model';

const app = (over: Partial<App> & { labels?: Record<string, string>; image?: string; status?: string } = {}): App => ({
  Id: 'abcdef0123456789',
  Name: '/web',
  Created: '2024-03-01T10:00:00Z',
  State: { Status: over.status ?? 'running' },
  Config: { Image: over.image ?? 'nginx:latest', Labels: over.labels ?? {}, Env: ['A=1', 'B=x=y', 'EMPTY'] },
  name: 'web',
  short_id: 'abcdef0123',
  ports: {},
  isUpdatable: false,
  health: 'none',
  ...over,
});

describe('portChips', () => {
  it('collapses the 0.0.0.0 and :: bindings of one port and links wildcard bindings to the page host', () => {
    const chips = portChips(
      {
        '80/tcp': [
          { HostIp: '0.0.0.0', HostPort: '8080' },
          { HostIp: '::', HostPort: '8080' },
        ],
        '443/tcp': null,
      },
      {},
      'berth.example',
    );
    expect(chips).toEqual([
      {
        hostIp: '0.0.0.0',
        hostPort: '8080',
        containerPort: '80',
        proto: 'tcp',
        label: null,
        href: 'http://berth.example:8080',
      },
    ]);
  });

  it('links a port bound to one address to that address, bracketing IPv6', () => {
    const chips = portChips(
      { '53/udp': [{ HostIp: '127.0.0.1', HostPort: '5353' }], '80/tcp': [{ HostIp: 'fd00::1', HostPort: '81' }] },
      {},
      'h',
    );
    expect(chips.map((c) => c.href)).toEqual(['http://[fd00::1]:81', 'http://127.0.0.1:5353']);
    expect(chips[1]).toMatchObject({ containerPort: '53', proto: 'udp' });
  });

  it('reads the display label from local.berth.port.* and the original local.yacht.port.*', () => {
    const ports = { '80/tcp': [{ HostIp: '', HostPort: '8080' }], '81/tcp': [{ HostIp: '', HostPort: '8081' }] };
    const chips = portChips(ports, { 'local.berth.port.8080': 'WebUI', 'local.yacht.port.8081': 'Admin' }, 'h');
    expect(chips.map((c) => c.label)).toEqual(['WebUI', 'Admin']);
  });
});

describe('portRows', () => {
  it('lists exposed but unpublished ports without a host side', () => {
    const rows = portRows({ '80/tcp': [{ HostIp: '0.0.0.0', HostPort: '8080' }], '443/tcp': null }, {}, 'h');
    expect(rows.map((r) => [r.containerPort, r.hostPort])).toEqual([
      ['80', '8080'],
      ['443', null],
    ]);
  });
});

describe('isBerthImage', () => {
  it.each([
    ['berth', true],
    ['berth:1.2', true],
    ['ghcr.io/someone/berth:latest', true],
    ['127.0.0.1:5000/berth@sha256:' + 'a'.repeat(64), true],
    ['nginx:latest', false],
    ['someone/berthing', false],
    ['berth-helper', false],
  ])('%s → %s', (image, expected) => {
    expect(isBerthImage(app({ image }))).toBe(expected);
  });

  it('recognises the OCI title label whatever the repository', () => {
    expect(
      isBerthImage(app({ image: 'registry.local/x/y', labels: { 'org.opencontainers.image.title': 'Berth' } })),
    ).toBe(true);
  });
});

describe('app readers', () => {
  it('splits environment entries at the first "="', () => {
    expect(envRows(['A=1', 'B=x=y', 'EMPTY'])).toEqual([
      { name: 'A', value: '1' },
      { name: 'B', value: 'x=y' },
      { name: 'EMPTY', value: '' },
    ]);
  });

  it('reads the compose project label or null', () => {
    expect(projectOf(app({ labels: { 'com.docker.compose.project': 'shop' } }))).toBe('shop');
    expect(projectOf(app())).toBeNull();
  });

  it('shows network addresses only while the app runs', () => {
    const networks = { bridge: { NetworkID: 'n1', IPAddress: '172.17.0.2', Gateway: '172.17.0.1' } };
    expect(networkRows(app({ NetworkSettings: { Networks: networks } }))).toEqual([
      { name: 'bridge', networkId: 'n1', ip: '172.17.0.2', gateway: '172.17.0.1' },
    ]);
    expect(networkRows(app({ status: 'exited', NetworkSettings: { Networks: networks } }))[0]).toMatchObject({
      ip: null,
      gateway: null,
    });
  });

  it('takes the command from Path and Args, else Config.Cmd', () => {
    expect(commandOf(app({ Path: 'sh', Args: ['-c', 'sleep 1'] }))).toEqual(['sh', '-c', 'sleep 1']);
    expect(commandOf(app({ Args: ['-c', 'sleep 1'] }))).toEqual(['-c', 'sleep 1']);
    expect(commandOf(app({ Config: { Image: 'x', Labels: {}, Cmd: ['sh'] } }))).toEqual(['sh']);
  });

  it('words the loading texts as the spec does', () => {
    expect(busyText('web', 'stop')).toBe('stop web ...');
    expect(busyText('web', 'update')).toBe('Updating web ...');
  });
});

describe('statusText', () => {
  it('says the exit code of an exited app and an out-of-memory kill, as the docker CLI does (issue 39 #5)', () => {
    expect(statusText({ Status: 'exited', ExitCode: 137 })).toBe('exited (137)');
    expect(statusText({ Status: 'exited', ExitCode: 137, OOMKilled: true })).toBe('exited (137) OOM killed');
    expect(statusText({ Status: 'exited', ExitCode: 0 })).toBe('exited (0)');
    expect(statusText({ Status: 'exited' })).toBe('exited');
    expect(statusText({ Status: 'running', ExitCode: 0 })).toBe('running');
  });
});

describe('healthcheck display (issue 36)', () => {
  it('shows the command as written and the engine default for unset durations', () => {
    expect(healthcheckCommand(['CMD-SHELL', 'curl -f http://localhost/ || exit 1'])).toBe(
      'curl -f http://localhost/ || exit 1',
    );
    expect(healthcheckCommand(['CMD', 'pg_isready', '-U', 'app'])).toBe('pg_isready -U app');
    expect(healthcheckCommand(['NONE'])).toBeNull();
    expect(healthcheckCommand(undefined)).toBeNull();
    expect(healthDuration(1_500_000_000, '30 s')).toBe('1.5 s');
    expect(healthDuration(0, '30 s')).toBe('30 s (default)');
  });
});
