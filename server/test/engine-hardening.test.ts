import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiError, ImageSummary } from '@berth/contract';
import { createTestApp, type TestApp } from './helpers/app';
import { dockerCli, IDLE_COMMAND, testEngine } from './helpers/engine';
import { buildImage, cleanup, exists, uniqueName } from './images-fixtures';

/** The shortest prefix (at least 3 characters, never a full or short id) that names `id` alone among `ids`. */
function uniquePrefix(id: string, ids: string[]): string {
  for (let n = 3; n < 10; n++) {
    const p = id.slice(0, n);
    if (ids.filter((other) => other.startsWith(p)).length === 1) return p;
  }
  throw new Error(`no unique prefix for ${id}`);
}
const ids = (args: string[]) =>
  dockerCli(args)
    .split('\n')
    .map((l) => l.trim().replace(/^sha256:/, ''))
    .filter(Boolean);

/**
 * An "engine" that accepts connections and never answers (issue 22.6): Berth must answer 504
 * engine_timeout instead of hanging.
 */
describe('a hung engine', () => {
  let server: net.Server;
  const sockets = new Set<net.Socket>();
  let t: TestApp;

  beforeAll(async () => {
    server = net.createServer((s) => {
      sockets.add(s);
      s.on('error', () => undefined);
      s.on('close', () => sockets.delete(s));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as net.AddressInfo;
    t = await createTestApp({ DOCKER_HOST: `tcp://127.0.0.1:${port}`, ENGINE_TIMEOUT_SECONDS: '1' });
  });
  afterAll(async () => {
    await t?.close();
    for (const s of sockets) s.destroy();
    await new Promise((resolve) => server.close(resolve));
  });

  it('answers list, inspect, image, volume and network routes with 504 engine_timeout and a clear detail', async () => {
    for (const url of [
      '/api/apps/',
      '/api/apps/some-app',
      '/api/resources/images/',
      '/api/resources/images/busybox',
      '/api/resources/volumes/',
      '/api/resources/volumes/data',
      '/api/resources/networks/',
    ]) {
      const res = await t.client.get<ApiError>(url);
      expect(res.status, url).toBe(504);
      expect(res.body.code, url).toBe('engine_timeout');
      expect(res.body.detail, url).toMatch(/^The Docker engine did not answer .* within 1 s/);
    }
  });
});

describe('engine failures in the product words (real engine)', () => {
  let t: TestApp;
  const containers: string[] = [];
  const volumes: string[] = [];
  const networks: string[] = [];
  const images: string[] = [];

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    cleanup('container', ...containers);
    cleanup('volume', ...volumes);
    cleanup('network', ...networks);
    cleanup('image', ...images);
    await t?.close();
  });

  const standIn = (extra: string[] = []) => {
    const name = uniqueName('hard');
    containers.push(name);
    const id = dockerCli([
      'create',
      '--name',
      name,
      '--label',
      'berth.test=1',
      ...extra,
      testEngine().image,
      'sleep',
      '3600',
    ]).trim();
    return { name, id };
  };

  describe('an id prefix never reaches a delete or an action (22.11)', () => {
    it('DELETE of a network by an id prefix is 404 and the network stays', async () => {
      const name = uniqueName('hard-net');
      networks.push(name);
      const id = dockerCli(['network', 'create', '--label', 'berth.test=1', name]).trim();
      const prefix = uniquePrefix(id, ids(['network', 'ls', '-q', '--no-trunc']));
      const res = await t.client.delete<ApiError>(`/api/resources/networks/${prefix}`);
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ code: 'not_found', detail: `No such network: ${prefix}` });
      expect(exists('network', name)).toBe(true);
    });

    it('an app action by an id prefix is 404 and the container stays', async () => {
      const { name, id } = standIn();
      const prefix = uniquePrefix(id, ids(['ps', '-aq', '--no-trunc']));
      const res = await t.client.post<ApiError>(`/api/apps/actions/${prefix}/remove`);
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('not_found');
      expect(exists('container', name)).toBe(true);
    });

    it('DELETE of an image by an id prefix is 404 and the image stays', async () => {
      const tag = `berth-t-hard-img:${uniqueName('t').slice(8)}`;
      images.push(tag);
      buildImage(tag);
      const id = dockerCli(['image', 'inspect', '--format', '{{.Id}}', tag])
        .trim()
        .replace(/^sha256:/, '');
      const prefix = uniquePrefix(id, ids(['image', 'ls', '-aq', '--no-trunc']));
      const res = await t.client.delete<ApiError>(`/api/resources/images/${prefix}`);
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('not_found');
      expect(exists('image', tag)).toBe(true);
    });
  });

  describe('bad input and races are 4xx, an unreachable registry 502 (22.12)', () => {
    it('refuses a sysctl that is not namespaced with 400 naming it, leaving no container', async () => {
      const name = uniqueName('hard-sysctl');
      containers.push(name);
      const res = await t.client.post<ApiError>('/api/apps/deploy', {
        name,
        image: testEngine().image,
        restart_policy: 'none',
        command: IDLE_COMMAND,
        sysctls: [{ name: 'vm.swappiness', value: '10' }],
        labels: [{ label: 'berth.test', value: '1' }],
      });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('validation_error');
      expect(res.body.detail).toMatch(/vm\.swappiness/);
      expect(exists('container', name)).toBe(false);
    });

    it('answers a restart racing a removal with 200, 404 or 409, never a 5xx', async () => {
      for (let round = 0; round < 3; round++) {
        const { name } = standIn();
        dockerCli(['start', name]);
        const [removed, restarted] = await Promise.all([
          t.client.post<ApiError>(`/api/apps/actions/${name}/remove`),
          t.client.post<ApiError>(`/api/apps/actions/${name}/restart`),
        ]);
        expect(removed.status).toBeLessThan(500);
        expect([200, 404, 409], JSON.stringify(restarted.body)).toContain(restarted.status);
      }
    });

    it('answers a pull from an unreachable registry with 502 and a detail, leaving nothing behind', async () => {
      const ref = '127.0.0.1:1/berth-test/nothing:latest';
      const res = await t.client.post<ApiError>('/api/resources/images/', { image: ref });
      expect(res.status).toBe(502);
      expect(res.body.code).toBe('engine_error');
      expect(res.body.detail).toMatch(/127\.0\.0\.1:1/);
      const list = await t.client.get<ImageSummary[]>('/api/resources/images/');
      expect(list.body.some((i) => i.RepoTags.some((r) => r.startsWith('127.0.0.1:1/')))).toBe(false);
    });
  });

  describe('refusals name the apps involved (23.8)', () => {
    it('names the app that uses a volume', async () => {
      const volume = uniqueName('hard-vol');
      volumes.push(volume);
      dockerCli(['volume', 'create', '--label', 'berth.test=1', volume]);
      const { name } = standIn(['-v', `${volume}:/data`]);
      const res = await t.client.delete<ApiError>(`/api/resources/volumes/${volume}`);
      expect(res.status).toBe(409);
      expect(res.body).toEqual({
        code: 'conflict',
        detail: `Volume ${volume} is in use by app ${name}; remove the app first.`,
      });
      expect(exists('volume', volume)).toBe(true);
    });

    it('names the app attached to a network', async () => {
      const network = uniqueName('hard-busy');
      networks.push(network);
      dockerCli(['network', 'create', '--label', 'berth.test=1', network]);
      const { name } = standIn(['--network', network]);
      dockerCli(['start', name]);
      const res = await t.client.delete<ApiError>(`/api/resources/networks/${network}`);
      expect(res.status).toBe(409);
      expect(res.body).toEqual({
        code: 'conflict',
        detail: `Network ${network} is in use by app ${name}; disconnect or remove it first.`,
      });
      expect(exists('network', network)).toBe(true);
    });
  });
});
