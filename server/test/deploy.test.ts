import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiError, DeployBody, DeployResult } from '@berth/contract';
import { createTestApp, type TestApp } from './helpers/app';
import { dockerCli, IDLE_COMMAND, testEngine } from './helpers/engine';
import { cleanup, exists, uniqueName } from './images-fixtures';

const DEPLOY = '/api/apps/deploy';
const MISSING_IMAGE = '127.0.0.1:5000/berth-test/missing:nope';

/** A host port nothing listens on right now (never sent traffic to). */
async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '0.0.0.0', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

interface Inspect {
  Id: string;
  Name: string;
  State: { Running: boolean; Status: string; StartedAt: string };
  Config: { Image: string; Cmd: string[]; Env: string[]; Labels: Record<string, string> };
  HostConfig: Record<string, unknown> & {
    Binds: string[];
    PortBindings: Record<string, { HostIp: string; HostPort: string }[]>;
    NanoCpus: number;
    Memory: number;
    RestartPolicy: { Name: string };
  };
  Mounts: { Type: string; Name?: string; Source: string; Destination: string; RW: boolean }[];
  NetworkSettings: { Ports: Record<string, { HostIp: string; HostPort: string }[] | null> };
}
const inspect = (name: string) => JSON.parse(dockerCli(['inspect', name]))[0] as Inspect;
/** Containers whose name contains `fragment` (the backups and temporaries of a replace included). */
const containersNamed = (fragment: string) =>
  dockerCli(['ps', '-a', '--filter', `name=${fragment}`, '--format', '{{.Names}}'])
    .split('\n')
    .filter(Boolean);

describe('deploy', () => {
  let t: TestApp;
  let bindDir: string;
  const names: string[] = [];
  const volumes: string[] = [];
  const fresh = (what = 'deploy') => {
    const name = uniqueName(what);
    names.push(name);
    return name;
  };

  beforeAll(async () => {
    t = await createTestApp();
    bindDir = fs.mkdtempSync(path.join(os.tmpdir(), 'berth-t-deploy-bind-'));
  });
  afterAll(async () => {
    for (const name of names) cleanup('container', ...containersNamed(name));
    cleanup('volume', ...volumes);
    fs.rmSync(bindDir, { recursive: true, force: true });
    await t?.close();
  });

  /** A payload for a busybox app that sleeps, labelled as a test resource. */
  const base = (name: string, extra: Partial<DeployBody> = {}): DeployBody => ({
    name,
    image: testEngine().image,
    restart_policy: 'unless-stopped',
    command: IDLE_COMMAND,
    labels: [{ label: 'berth.test', value: '1' }],
    ...extra,
  });
  const deploy = (body: object) => t.client.post<DeployResult & ApiError>(DEPLOY, body);

  describe('a full app, then edits of it', () => {
    const name = uniqueName('deploy-full');
    const volume = `${name}-data`;
    let hostPort: number;
    let payload: DeployBody;
    let first: Inspect;

    beforeAll(async () => {
      names.push(name);
      volumes.push(volume);
      hostPort = await freePort();
      payload = base(name, {
        ports: [
          { label: 'Web', hport: String(hostPort), cport: '80', proto: 'tcp' },
          { cport: 5353, proto: 'udp' },
        ],
        volumes: [
          { bind: volume, container: '/data' },
          { bind: bindDir, container: '/host', readonly: true },
        ],
        env: [
          { name: 'GREETING', default: 'hello', label: 'Greeting' },
          { name: 'EQUALS', default: 'a=b' },
        ],
        labels: [
          { label: 'berth.test', value: '1' },
          { label: 'owner', value: 'team-a' },
        ],
        cpus: 0.5,
        mem_limit: '64m',
      });
    });

    it('deploys it and the engine shows every field as sent', async () => {
      const res = await deploy(payload);
      expect(res.status, res.text).toBe(200);
      expect(res.body).toMatchObject({ name, status: 'running' });

      first = inspect(name);
      expect(first.Id).toBe(res.body.id);
      expect(first.State.Running).toBe(true);
      expect(first.Config.Image).toBe(testEngine().image);
      expect(first.Config.Cmd).toEqual(IDLE_COMMAND);
      expect(first.Config.Env).toEqual(expect.arrayContaining(['GREETING=hello', 'EQUALS=a=b']));
      expect(first.Config.Labels).toMatchObject({
        'berth.test': '1',
        owner: 'team-a',
        [`local.berth.port.${hostPort}`]: 'Web',
      });
      expect(first.HostConfig.PortBindings).toEqual({
        '80/tcp': [{ HostIp: '', HostPort: String(hostPort) }],
        '5353/udp': [{ HostIp: '', HostPort: '' }],
      });
      expect(first.HostConfig.Binds).toEqual([`${volume}:/data`, `${bindDir}:/host:ro`]);
      expect(first.HostConfig.NanoCpus).toBe(500_000_000);
      expect(first.HostConfig.Memory).toBe(64 * 1024 * 1024);
      expect(first.HostConfig.RestartPolicy.Name).toBe('unless-stopped');
      expect(first.Mounts).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ Type: 'volume', Name: volume, Destination: '/data', RW: true }),
          expect.objectContaining({ Type: 'bind', Source: bindDir, Destination: '/host', RW: false }),
        ]),
      );
      expect(exists('volume', volume)).toBe(true);
    });

    it('refuses the same name again with 409 and leaves the app alone', async () => {
      const res = await deploy(payload);
      expect(res.status).toBe(409);
      expect(res.body.detail).toContain(`"${name}" is already in use`);
      expect(inspect(name).Id).toBe(first.Id);
    });

    it('edits it: a new container with the changed env, everything else the same, nothing left behind', async () => {
      const res = await deploy({
        ...payload,
        env: [
          { name: 'GREETING', default: 'bonjour' },
          { name: 'EQUALS', default: 'a=b' },
        ],
        edit: true,
        id: name,
      });
      expect(res.status, res.text).toBe(200);
      const after = inspect(name);
      expect(after.Id).toBe(res.body.id);
      expect(after.Id).not.toBe(first.Id);
      expect(after.State.Running).toBe(true);
      expect(after.Config.Env).toEqual(first.Config.Env.map((e) => (e === 'GREETING=hello' ? 'GREETING=bonjour' : e)));
      expect(after.Config.Cmd).toEqual(first.Config.Cmd);
      expect(after.Config.Image).toBe(first.Config.Image);
      expect(after.Config.Labels).toEqual(first.Config.Labels);
      for (const key of [
        'Binds',
        'NanoCpus',
        'Memory',
        'RestartPolicy',
        'CapAdd',
        'Devices',
        'Sysctls',
        'NetworkMode',
      ]) {
        expect(after.HostConfig[key], key).toEqual(first.HostConfig[key]);
      }
      // Changed on purpose (issue 23.10): a random host port is kept across the edit, so the new
      // container binds the port the engine had picked for the old one; fixed ports stay as they were.
      const published = first.NetworkSettings.Ports;
      const kept = Object.fromEntries(
        Object.entries(first.HostConfig.PortBindings).map(([port, bindings]) => [
          port,
          bindings.map((b, i) => (b.HostPort === '' ? { ...b, HostPort: published[port]?.[i]?.HostPort ?? '' } : b)),
        ]),
      );
      expect(after.HostConfig.PortBindings).toEqual(kept);
      expect(after.NetworkSettings.Ports).toEqual(first.NetworkSettings.Ports);
      // The engine lists Mounts in no fixed order; compare them as a set.
      const mounts = (c: typeof first) =>
        c.Mounts.map((m) => [m.Type, m.Name ?? m.Source, m.Destination]).sort((a, b) =>
          String(a).localeCompare(String(b)),
        );
      expect(mounts(after)).toEqual(mounts(first));
      expect(containersNamed(name)).toEqual([name]);
      first = after;
    });

    it('an edit whose image cannot be pulled leaves the old container running unchanged', async () => {
      const res = await deploy({ ...payload, image: MISSING_IMAGE, edit: true, id: name });
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(600);
      expect(res.body.code).toBe('image_pull_failed');
      expect(res.body.detail).toContain(MISSING_IMAGE);
      const after = inspect(name);
      expect(after.Id).toBe(first.Id);
      expect(after.State.Running).toBe(true);
      expect(after.State.StartedAt).toBe(first.State.StartedAt);
      expect(containersNamed(name)).toEqual([name]);
    });

    it('an edit whose replacement cannot start puts the old container back, running', async () => {
      const res = await deploy({ ...payload, command: ['/no/such/binary'], edit: true, id: name });
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.body.detail).toMatch(/no such file|not found|executable/i);
      const after = inspect(name);
      expect(after.Id).toBe(first.Id);
      expect(after.Name).toBe(`/${name}`);
      expect(after.State.Running).toBe(true);
      expect(after.Config.Env).toEqual(first.Config.Env);
      expect(containersNamed(name)).toEqual([name]);
    });

    it('refuses a second app on the same host port with 409 and leaves no container behind', async () => {
      const other = fresh('deploy-clash');
      const res = await deploy(base(other, { ports: [{ hport: hostPort, cport: 80 }] }));
      expect(res.status).toBe(409);
      expect(res.body.detail).toMatch(/port/i);
      expect(containersNamed(other)).toEqual([]);
    });
  });

  it('publishes each port on its host IP and an unchanged edit keeps every binding exactly (issue 39 #1)', async () => {
    const name = fresh('deploy-hostip');
    const [local, any] = [await freePort(), await freePort()];
    const ports = [
      { host_ip: '127.0.0.1', hport: local, cport: 80 },
      { host_ip: '[::1]', hport: local, cport: 80 },
      { hport: any, cport: 80 },
      { host_ip: '127.0.0.1', cport: 53, proto: 'udp' as const },
    ];
    const expected = {
      '80/tcp': [
        { HostIp: '127.0.0.1', HostPort: String(local) },
        { HostIp: '::1', HostPort: String(local) },
        { HostIp: '', HostPort: String(any) },
      ],
      '53/udp': [{ HostIp: '127.0.0.1', HostPort: '' }],
    };
    const res = await deploy(base(name, { ports }));
    expect(res.status, res.text).toBe(200);
    const first = inspect(name);
    expect(first.HostConfig.PortBindings).toEqual(expected);
    const published = first.NetworkSettings.Ports;
    expect(published['80/tcp']).toEqual(
      expect.arrayContaining([
        { HostIp: '127.0.0.1', HostPort: String(local) },
        { HostIp: '::1', HostPort: String(local) },
      ]),
    );
    const udp = published['53/udp'] ?? [];
    expect(udp.map((b) => b.HostIp)).toEqual(['127.0.0.1']);

    const edited = await deploy(base(name, { ports, edit: true, id: name }));
    expect(edited.status, edited.text).toBe(200);
    const after = inspect(name);
    expect(after.Id).not.toBe(first.Id);
    // The engine-chosen loopback UDP port is kept on loopback; every other binding is as sent.
    expect(after.HostConfig.PortBindings).toEqual({
      ...expected,
      '53/udp': [{ HostIp: '127.0.0.1', HostPort: udp[0]!.HostPort }],
    });
    expect(after.NetworkSettings.Ports).toEqual(first.NetworkSettings.Ports);
  });

  it('refuses a host IP that is not an address with 400 naming the field', async () => {
    const name = fresh();
    const res = await deploy(base(name, { ports: [{ host_ip: 'localhost', hport: 80, cport: 80 }] }));
    expect(res.status).toBe(400);
    expect(res.body.detail).toContain('Host IP must be an IPv4 or IPv6 address');
    expect(containersNamed(name)).toEqual([]);
  });

  it('treats null lists as empty and keeps fractional CPUs', async () => {
    const name = fresh();
    const res = await deploy({
      ...base(name),
      ports: null,
      volumes: null,
      env: null,
      devices: null,
      sysctls: null,
      cap_add: null,
      cpus: '1.25',
      mem_limit: '',
    });
    expect(res.status, res.text).toBe(200);
    const info = inspect(name);
    expect(info.HostConfig.NanoCpus).toBe(1_250_000_000);
    expect(info.HostConfig.Memory).toBe(0);
    expect(info.HostConfig.Binds ?? []).toEqual([]);
  });

  it('refuses an image that cannot be pulled with a clear error and creates nothing', async () => {
    const name = fresh();
    const res = await deploy(base(name, { image: MISSING_IMAGE }));
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: 'image_pull_failed' });
    expect(res.body.detail).toMatch(/could not be pulled/);
    expect(containersNamed(name)).toEqual([]);
  });

  it('answers 404 when the app to edit does not exist', async () => {
    const name = fresh();
    const res = await deploy(base(name, { edit: true, id: `${name}-gone` }));
    expect(res.status).toBe(404);
    expect(containersNamed(name)).toEqual([]);
  });

  it('enforces every rule of the form with a 400 naming the field, and creates nothing', async () => {
    const name = fresh('deploy-rules');
    const img = testEngine().image;
    const cases: [string, object, string][] = [
      ['name missing', { image: img, restart_policy: 'none' }, 'name'],
      ['name too short', { name: 'a', image: img, restart_policy: 'none' }, 'name'],
      ['name with a space', { name: 'my box', image: img, restart_policy: 'none' }, 'name'],
      ['name starting with -', { name: '-x', image: img, restart_policy: 'none' }, 'name'],
      ['image missing', { name, restart_policy: 'none' }, 'image'],
      ['image not a reference', { name, image: 'nginx;id', restart_policy: 'none' }, 'image'],
      ['restart policy missing', { name, image: img }, 'restart_policy'],
      ['restart policy unknown', { name, image: img, restart_policy: 'sometimes' }, 'restart_policy'],
      ['container port missing', { ports: [{ hport: '8080' }] }, 'ports.0.cport'],
      ['host port out of range', { ports: [{ hport: '99999', cport: '80' }] }, 'ports.0.hport'],
      ['container port not a number', { ports: [{ cport: 'abc' }] }, 'ports.0.cport'],
      ['negative port', { ports: [{ cport: -1 }] }, 'ports.0.cport'],
      ['unknown protocol', { ports: [{ cport: '80', proto: 'sctpx' }] }, 'ports.0.proto'],
      ['volume container missing', { volumes: [{ bind: '/tmp/x' }] }, 'volumes.0.container'],
      ['volume container relative', { volumes: [{ bind: '/tmp/x', container: 'data' }] }, 'volumes.0.container'],
      ['volume host relative', { volumes: [{ bind: './data/../..', container: '/data' }] }, 'volumes.0.bind'],
      ['env name missing', { env: [{ default: 'x' }] }, 'env.0.name'],
      ['env value missing', { env: [{ name: 'X' }] }, 'env.0.default'],
      ['env value empty', { env: [{ name: 'X', default: '' }] }, 'env.0.default'],
      ['env name with =', { env: [{ name: 'A=B', default: 'x' }] }, 'env.0.name'],
      ['env unknown variable', { env: [{ name: 'X', default: '!nosuchvariable' }] }, 'env.0.default'],
      ['command entry empty', { command: ['sh', ''] }, 'command.1'],
      ['device host missing', { devices: [{ container: '/dev/x' }] }, 'devices.0.host'],
      ['device container missing', { devices: [{ host: '/dev/x' }] }, 'devices.0.container'],
      ['label missing', { labels: [{ value: 'x' }] }, 'labels.0.label'],
      ['sysctl name missing', { sysctls: [{ value: '1' }] }, 'sysctls.0.name'],
      ['sysctl value missing', { sysctls: [{ name: 'net.ipv4.ip_forward' }] }, 'sysctls.0.value'],
      ['capability not in the list', { cap_add: ['ALL'] }, 'cap_add.0'],
      ['memory malformed', { mem_limit: 'abc' }, 'mem_limit'],
      ['memory below the engine minimum', { mem_limit: '1' }, 'mem_limit'],
      ['memory with an unknown unit', { mem_limit: '5t' }, 'mem_limit'],
      ['cpus negative', { cpus: -2 }, 'cpus'],
      ['cpus not a number', { cpus: 'lots' }, 'cpus'],
      ['network and network mode together', { network: 'bridge', network_mode: 'host' }, 'network_mode'],
      ['ports with host networking', { network_mode: 'host', ports: [{ cport: 80 }] }, 'ports'],
      ['unknown network mode', { network_mode: 'container:x' }, 'network_mode'],
      ['network that does not exist', { network: `${name}-nonet` }, 'network'],
      ['edit without id', { edit: true }, 'id'],
      ['an unknown field', { HostConfig: { Privileged: true } }, 'HostConfig'],
    ];
    for (const [what, change, field] of cases) {
      const body =
        'restart_policy' in change || 'image' in change || 'name' in change ? change : { ...base(name), ...change };
      const res = await deploy(body);
      expect(res.status, what).toBe(400);
      expect(
        res.body.fields?.map((f) => f.field),
        what,
      ).toContain(field);
      expect(res.body.detail, what).toContain(field);
    }
    expect(containersNamed(name)).toEqual([]);
  });
});
