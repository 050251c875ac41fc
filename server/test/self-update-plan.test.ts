import { describe, expect, it } from 'vitest';
import type { ContainerDetail, RecreateSpec } from '../src/services/apps/containers';
import {
  healthVerdict,
  updaterSpec,
  UPDATER_LABEL,
  type HealthInput,
} from '../src/services/self-update/self-container';

const opts = { stableMs: 10_000, timeoutMs: 60_000 };
const state = (s: Partial<HealthInput['State']>, restarts = 0): HealthInput => ({
  State: { Status: 'running', Running: true, Restarting: false, ExitCode: 0, ...s },
  RestartCount: restarts,
});

describe('healthVerdict: has the new Berth come up?', () => {
  it('waits while the health check is starting, and fails once the timeout passes', () => {
    expect(healthVerdict(state({ Health: { Status: 'starting' } }), 5_000, opts)).toEqual({ state: 'wait' });
    expect(healthVerdict(state({ Health: { Status: 'starting' } }), 60_000, opts)).toEqual({
      state: 'failed',
      reason: 'it was not healthy within 60 s',
    });
  });

  it('accepts healthy at once, even before the stable time', () => {
    expect(healthVerdict(state({ Health: { Status: 'healthy' } }), 100, opts)).toEqual({ state: 'healthy' });
  });

  it('fails on unhealthy and quotes the last check output', () => {
    const v = healthVerdict(
      state({
        Health: {
          Status: 'unhealthy',
          Log: [
            { ExitCode: 1, Output: 'old' },
            { ExitCode: 1, Output: 'connection refused\n' },
          ],
        },
      }),
      100,
      opts,
    );
    expect(v).toEqual({ state: 'failed', reason: 'its health check failed: connection refused' });
  });

  it('without a health check, needs the stable time of steady running', () => {
    expect(healthVerdict(state({}), 9_999, opts)).toEqual({ state: 'wait' });
    expect(healthVerdict(state({}), 10_000, opts)).toEqual({ state: 'healthy' });
  });

  it('fails when the container stopped, restarts, or was restarted between two looks', () => {
    expect(healthVerdict(state({ Running: false, Status: 'exited', ExitCode: 3 }), 100, opts)).toEqual({
      state: 'failed',
      reason: 'it stopped (exited, exit code 3)',
    });
    expect(healthVerdict(state({ Restarting: true, ExitCode: 1 }), 100, opts).state).toBe('failed');
    expect(healthVerdict(state({ Health: { Status: 'healthy' } }, 1), 100, opts).state).toBe('failed');
  });
});

describe('updaterSpec: a copy of Berth that only does the swap', () => {
  const self = { Id: 'a'.repeat(64), Image: `sha256:${'b'.repeat(64)}` } as ContainerDetail;
  const base: RecreateSpec = {
    create: {
      Image: 'registry.example/berth:latest',
      Hostname: 'berth',
      MacAddress: '02:42:ac:11:00:02',
      Env: ['DATA_DIR=/config', 'DOCKER_HOST=unix:///var/run/docker.sock'],
      Labels: { 'com.docker.compose.project': 'berth', 'com.docker.compose.service': 'berth', keep: 'me' },
      ExposedPorts: { '8000/tcp': {} },
      Healthcheck: { Test: ['CMD', 'node', 'health'] },
      Tty: true,
      HostConfig: {
        Binds: ['/var/run/docker.sock:/var/run/docker.sock', 'berth-config:/config'],
        GroupAdd: ['998'],
        PortBindings: { '8000/tcp': [{ HostPort: '8000' }] },
        PublishAllPorts: true,
        RestartPolicy: { Name: 'unless-stopped' },
      },
      NetworkingConfig: { EndpointsConfig: { proxy: { IPAMConfig: { IPv4Address: '10.5.0.9' }, Aliases: ['berth'] } } },
    },
    extraNetworks: [{ name: 'other', endpoint: { Aliases: ['berth'], IPAMConfig: { IPv4Address: '10.6.0.9' } } }],
  };
  const { create, extraNetworks } = updaterSpec(self, base, [
    '/usr/local/bin/node',
    '/app/server/dist/self-update-main.mjs',
    '--target',
    self.Id,
  ]);

  it('runs the image Berth runs now, with the updater command instead of the server', () => {
    expect(create.Image).toBe(self.Image);
    expect(create.Entrypoint).toEqual(['/usr/local/bin/node']);
    expect(create.Cmd).toEqual(['/app/server/dist/self-update-main.mjs', '--target', self.Id]);
  });

  it('keeps what reaches the engine: mounts, groups, environment, networks', () => {
    expect(create.HostConfig?.Binds).toEqual(base.create.HostConfig!.Binds);
    expect(create.HostConfig?.GroupAdd).toEqual(['998']);
    expect(create.Env).toEqual(base.create.Env);
    expect(Object.keys(create.NetworkingConfig?.EndpointsConfig ?? {})).toEqual(['proxy']);
    expect(extraNetworks.map((n) => n.name)).toEqual(['other']);
  });

  it('publishes nothing, has no health check, restart policy, fixed address, alias or compose labels, and removes itself', () => {
    expect(create.HostConfig).toMatchObject({
      PortBindings: {},
      PublishAllPorts: false,
      RestartPolicy: { Name: 'no' },
      AutoRemove: true,
    });
    expect(create.ExposedPorts).toEqual({});
    expect(create.Healthcheck).toEqual({ Test: ['NONE'] });
    expect(create.Labels).toEqual({ keep: 'me', [UPDATER_LABEL]: self.Id });
    expect(create).not.toHaveProperty('Hostname');
    expect(create).not.toHaveProperty('MacAddress');
    expect(create).not.toHaveProperty('Tty');
    const endpoint = create.NetworkingConfig!.EndpointsConfig!.proxy!;
    expect(endpoint.IPAMConfig).toBeUndefined();
    expect(endpoint.Aliases).toEqual([]);
    expect(extraNetworks[0]!.endpoint).toEqual({ Aliases: [], IPAMConfig: undefined });
  });

  it('leaves the spec it was given unchanged', () => {
    expect(base.create.HostConfig!.PortBindings).toEqual({ '8000/tcp': [{ HostPort: '8000' }] });
    expect(base.create.Hostname).toBe('berth');
  });
});
