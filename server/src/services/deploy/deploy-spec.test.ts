import { describe, expect, it } from 'vitest';
import { DeployBody, type DeployBody as DeployInput } from '@berth/contract';
import { ValidationError } from '../../errors';
import { buildContainerSpec, keepRandomHostPorts } from './deploy-spec';
import { makeSubstituter } from '../variables/variables';

const vars = makeSubstituter([
  { variable: '!config', replacement: '/berth/AppData/Config' },
  { variable: '!configs', replacement: '/other' },
  { variable: '!PUID', replacement: '1000' },
]);
const parse = (body: Partial<DeployInput>) =>
  DeployBody.parse({ name: 'app1', image: 'busybox:1', restart_policy: 'unless-stopped', ...body });

describe('makeSubstituter', () => {
  it('replaces whole tokens only, longest name first, in one pass', () => {
    expect(vars.apply('!config/app')).toBe('/berth/AppData/Config/app');
    expect(vars.apply('!configs/x')).toBe('/other/x');
    expect(vars.apply('!configuration')).toBe('!configuration');
    expect(vars.apply('pass!config')).toBe('pass!config');
    expect(
      makeSubstituter([
        { variable: '!a', replacement: '!b' },
        { variable: '!b', replacement: 'x' },
      ]).apply('!a'),
    ).toBe('!b');
  });
  it('names the unknown tokens', () => {
    expect(vars.unknown('!config and !nope/x !PUID')).toEqual(['!nope']);
    expect(vars.unknown('pass!word')).toEqual([]);
  });
});

describe('buildContainerSpec', () => {
  it('maps every payload field onto the engine create body', () => {
    const spec = buildContainerSpec(
      parse({
        command: ['sh', '-c', 'sleep 1'],
        ports: [
          { cport: '80', hport: '8080', proto: 'tcp', label: 'Web' },
          { cport: 80, hport: 8081 },
          { cport: '53', hport: null, proto: 'udp' },
        ],
        volumes: [
          { bind: '!config/app', container: '/config' },
          { bind: 'appdata', container: '/data', readonly: true },
        ],
        env: [
          { name: 'PUID', default: '!PUID' },
          { name: 'A', default: 'x=y' },
        ],
        labels: [
          { label: 'local.yacht.port.8080', value: 'Old' },
          { label: 'owner', value: null },
        ],
        devices: [{ container: '/dev/x', host: '/dev/y' }],
        sysctls: [{ name: 'net.ipv4.ip_forward', value: '1' }],
        cap_add: ['NET_ADMIN', 'NET_ADMIN'],
        cpus: '0.5',
        mem_limit: '64m',
        restart_policy: 'none',
        network: 'mynet',
      }),
      vars,
    );
    expect(spec).toEqual({
      Image: 'busybox:1',
      Cmd: ['sh', '-c', 'sleep 1'],
      Env: ['PUID=1000', 'A=x=y'],
      Labels: { 'local.berth.port.8080': 'Web', owner: '' },
      ExposedPorts: { '80/tcp': {}, '53/udp': {} },
      HostConfig: {
        Binds: ['/berth/AppData/Config/app:/config', 'appdata:/data:ro'],
        PortBindings: {
          '80/tcp': [
            { HostIp: '', HostPort: '8080' },
            { HostIp: '', HostPort: '8081' },
          ],
          '53/udp': [{ HostIp: '', HostPort: '' }],
        },
        Devices: [{ PathOnHost: '/dev/y', PathInContainer: '/dev/x', CgroupPermissions: 'rwm' }],
        Sysctls: { 'net.ipv4.ip_forward': '1' },
        CapAdd: ['NET_ADMIN'],
        NanoCpus: 500_000_000,
        Memory: 64 * 1024 * 1024,
        RestartPolicy: { Name: 'no', MaximumRetryCount: 0 },
        NetworkMode: 'mynet',
      },
      NetworkingConfig: { EndpointsConfig: { mynet: {} } },
    });
  });

  it('names every field with an unset variable or a relative host path', () => {
    let error: ValidationError | undefined;
    try {
      buildContainerSpec(
        parse({
          env: [{ name: 'X', default: '!nope' }],
          volumes: [
            { bind: './data', container: '/d' },
            { bind: '!missing/x', container: '/e' },
          ],
        }),
        vars,
      );
    } catch (err) {
      error = err as ValidationError;
    }
    expect(error).toBeInstanceOf(ValidationError);
    expect(error!.fields!.map((f) => f.field)).toEqual(['volumes.0.bind', 'volumes.1.bind', 'env.0.default']);
    expect(error!.message).toContain(
      'The template variable !nope is not set (used in environment variable X, field env.0.default)',
    );
  });
});

describe('buildContainerSpec for template fields', () => {
  it('makes an empty host an anonymous volume and carries privileged, interactive and hostname (issue 39 #7, #9)', () => {
    const spec = buildContainerSpec(
      parse({
        volumes: [
          { bind: '', container: '/cache', readonly: true },
          { bind: '/srv', container: '/srv' },
        ],
        privileged: true,
        interactive: true,
        hostname: 'edge',
      }),
      vars,
    );
    expect(spec.HostConfig).toMatchObject({
      Binds: ['/srv:/srv'],
      Mounts: [{ Type: 'volume', Source: '', Target: '/cache', ReadOnly: true }],
      Privileged: true,
    });
    expect(spec).toMatchObject({ Hostname: 'edge', Tty: true, OpenStdin: true });
    const plain = buildContainerSpec(parse({}), vars);
    expect(plain.HostConfig?.Privileged).toBeUndefined();
    expect(plain.Tty).toBeUndefined();
    expect(() => parse({ hostname: 'not a host' })).toThrow('Hostname must be');
  });
});

describe('keepRandomHostPorts', () => {
  it('keeps the host port the engine chose for a random port, and leaves fixed and newly fixed ports alone', () => {
    const spec = buildContainerSpec(
      parse({
        ports: [
          { cport: '80', hport: null },
          { cport: '81', hport: null },
          { cport: '82', hport: '9000' },
          { cport: '53', hport: null, proto: 'udp' },
        ],
      }),
      vars,
    );
    keepRandomHostPorts(spec, {
      configured: {
        '80/tcp': [{ HostIp: '', HostPort: '' }],
        '81/tcp': [{ HostIp: '', HostPort: '8081' }],
        '82/tcp': [{ HostIp: '', HostPort: '' }],
      },
      published: {
        '80/tcp': [
          { HostIp: '0.0.0.0', HostPort: '32768' },
          { HostIp: '::', HostPort: '32768' },
        ],
        '81/tcp': [{ HostIp: '0.0.0.0', HostPort: '8081' }],
        '82/tcp': [{ HostIp: '0.0.0.0', HostPort: '32769' }],
      },
    });
    expect(spec.HostConfig?.PortBindings).toEqual({
      '80/tcp': [{ HostIp: '', HostPort: '32768' }],
      // was fixed at 8081 and the user cleared it: random, as asked
      '81/tcp': [{ HostIp: '', HostPort: '' }],
      '82/tcp': [{ HostIp: '', HostPort: '9000' }],
      // new port: random
      '53/udp': [{ HostIp: '', HostPort: '' }],
    });
  });

  it('keeps each random port on its own host address, and every binding of one container port (issue 39 #1)', () => {
    const spec = buildContainerSpec(
      parse({
        ports: [
          { cport: '80', hport: null, host_ip: '127.0.0.1' },
          { cport: '80', hport: null },
          { cport: '80', hport: '9000', host_ip: '[::1]' },
        ],
      }),
      vars,
    );
    keepRandomHostPorts(spec, {
      configured: {
        '80/tcp': [
          { HostIp: '', HostPort: '' },
          { HostIp: '127.0.0.1', HostPort: '' },
        ],
      },
      published: {
        '80/tcp': [
          { HostIp: '0.0.0.0', HostPort: '32770' },
          { HostIp: '::', HostPort: '32770' },
          { HostIp: '127.0.0.1', HostPort: '32771' },
        ],
      },
    });
    expect(spec.HostConfig?.PortBindings).toEqual({
      '80/tcp': [
        { HostIp: '127.0.0.1', HostPort: '32771' },
        { HostIp: '', HostPort: '32770' },
        { HostIp: '::1', HostPort: '9000' },
      ],
    });
  });
});
