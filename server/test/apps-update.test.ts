import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiError, App, AppUpdateCheck } from '@berth/contract';
import { createTestApp, type TestApp } from './helpers/app';
import { dockerCli, testEngine } from './helpers/engine';
import { buildImage, cleanup, exists, uniqueName } from './images-fixtures';
import { inspect, runTicker } from './apps-fixtures';

interface Inspected {
  Id: string;
  Image: string;
  Name: string;
  State: { Status: string; Running: boolean };
  Config: { Image: string; Env: string[]; Labels: Record<string, string> };
  HostConfig: {
    PortBindings: Record<string, { HostIp: string; HostPort: string }[]>;
    RestartPolicy: { Name: string };
    Binds: string[] | null;
  };
  Mounts: { Type: string; Name?: string; Destination: string }[];
}

let t: TestApp;
const repo = `${testEngine().registry}/berth-t-upd-${randomBytes(4).toString('hex')}/app`;
const ref = `${repo}:latest`;
const name = uniqueName('update');
const volume = uniqueName('update-vol');
const images: string[] = [];
const containers: string[] = [name];

/** Builds a new image under `ref`, pushes it to the local registry, returns its id. */
function publish(): string {
  const id = buildImage(ref);
  images.push(id);
  dockerCli(['push', ref], { timeoutMs: 120_000 });
  return id;
}

/** Deletes a pushed manifest from the local registry (it accepts deletes), so the test leaves nothing behind. */
async function deleteFromRegistry(): Promise<void> {
  const [registry, ...path] = repo.split('/');
  const url = `http://${registry}/v2/${path.join('/')}/manifests/latest`;
  const head = await fetch(url, {
    method: 'HEAD',
    headers: { accept: 'application/vnd.docker.distribution.manifest.v2+json' },
  });
  const digest = head.headers.get('docker-content-digest');
  if (digest) await fetch(`http://${registry}/v2/${path.join('/')}/manifests/${digest}`, { method: 'DELETE' });
}

beforeAll(async () => {
  t = await createTestApp();
});

afterAll(async () => {
  const leftovers = dockerCli(['ps', '-a', '--filter', `name=${name}`, '--format', '{{.Names}}'])
    .trim()
    .split('\n')
    .filter(Boolean);
  cleanup('container', ...containers, ...leftovers);
  cleanup('volume', volume);
  cleanup('image', ref, ...images);
  await deleteFromRegistry();
  await t?.close();
});

describe('app update', () => {
  it('checks, then updates an app in place with the same ports, env, labels, mounts and restart policy', async () => {
    const first = publish();
    const port = 40000 + Math.floor(Math.random() * 20000);
    dockerCli(['volume', 'create', '--label', 'berth.test=1', volume]);
    runTicker(
      name,
      [
        '-p',
        `127.0.0.1:${port}:80`,
        '-e',
        'SECRET_VALUE=hunter2',
        '--label',
        'custom=yes',
        '-v',
        `${volume}:/data`,
        '--restart',
        'unless-stopped',
      ],
      ref,
    );
    const before = inspect<Inspected>(name);
    expect(before.Image).toBe(first);

    const fresh = await t.client.get<AppUpdateCheck>(`/api/apps/${name}/updates`);
    expect(fresh.status).toBe(200);
    expect(fresh.body).toMatchObject({ name, isUpdatable: false, reason: null, update: { image: ref } });
    expect(fresh.body.update.remoteDigest).toMatch(/^sha256:/);
    expect(fresh.body.update.localDigests).toContain(fresh.body.update.remoteDigest);

    const second = publish();
    expect(second).not.toBe(first);
    const stale = await t.client.get<AppUpdateCheck>(`/api/apps/${name}/updates`);
    expect(stale.body).toMatchObject({ isUpdatable: true, reason: null });
    expect(stale.body.update.remoteDigest).not.toBe(fresh.body.update.remoteDigest);
    // The list shows the cached answer, and the reference (the engine would show the old image ID).
    const listed = (await t.client.get<App[]>('/api/apps/')).body.find((a) => a.name === name)!;
    expect(listed.isUpdatable).toBe(true);
    expect(listed.Config.Image).toBe(ref);

    const res = await t.client.post<App[]>(`/api/apps/${name}/update`);
    expect(res.status, res.text).toBe(200);
    const after = inspect<Inspected>(name);
    expect(after.Id).not.toBe(before.Id);
    expect(after.Image).toBe(second);
    expect(after.State.Running).toBe(true);
    expect(after.Config.Image).toBe(ref);
    expect(after.HostConfig.PortBindings).toEqual(before.HostConfig.PortBindings);
    expect(after.HostConfig.PortBindings['80/tcp']).toEqual([{ HostIp: '127.0.0.1', HostPort: String(port) }]);
    expect(after.Config.Env).toEqual(before.Config.Env);
    expect(after.Config.Env).toContain('SECRET_VALUE=hunter2');
    expect(after.Config.Labels).toMatchObject({ custom: 'yes', 'berth.test': '1' });
    expect(after.HostConfig.RestartPolicy.Name).toBe('unless-stopped');
    expect(after.Mounts.find((m) => m.Destination === '/data')).toMatchObject({ Type: 'volume', Name: volume });
    expect(exists('container', before.Id)).toBe(false);
    expect(dockerCli(['ps', '-a', '--filter', `name=${name}-berth-`, '--format', '{{.Names}}']).trim()).toBe('');

    const entry = res.body.find((a) => a.name === name)!;
    expect(entry).toMatchObject({ Id: after.Id, isUpdatable: false, State: { Status: 'running' } });
    const again = await t.client.get<AppUpdateCheck>(`/api/apps/${name}/updates`);
    expect(again.body.isUpdatable).toBe(false);
  });

  it('says why it cannot check an image that never came from a registry', async () => {
    const local = uniqueName('update-local');
    const tag = `${local}:latest`;
    images.push(buildImage(tag));
    containers.push(local);
    runTicker(local, [], tag);
    const res = await t.client.get<AppUpdateCheck>(`/api/apps/${local}/updates`);
    expect(res.status).toBe(200);
    expect(res.body.isUpdatable).toBe(false);
    expect(res.body.reason).toMatch(/no digest from its registry/);
    cleanup('image', tag);
  });

  it('reports a registry that cannot answer as a reason, not an error', async () => {
    const gone = uniqueName('update-gone');
    const goneRepo = `${testEngine().registry}/berth-t-upd-gone-${randomBytes(3).toString('hex')}/x`;
    dockerCli(['tag', testEngine().image, `${goneRepo}:latest`]);
    dockerCli(['push', `${goneRepo}:latest`]);
    containers.push(gone);
    try {
      runTicker(gone, [], `${goneRepo}:latest`);
      // The registry forgets the image: the local digest stays, the registry has nothing to compare.
      const [registry, ...path] = goneRepo.split('/');
      const manifests = `http://${registry}/v2/${path.join('/')}/manifests`;
      const head = await fetch(`${manifests}/latest`, {
        method: 'HEAD',
        headers: { accept: 'application/vnd.docker.distribution.manifest.v2+json' },
      });
      expect(
        (await fetch(`${manifests}/${head.headers.get('docker-content-digest')}`, { method: 'DELETE' })).status,
      ).toBe(202);
      const res = await t.client.get<AppUpdateCheck>(`/api/apps/${gone}/updates`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ isUpdatable: false, update: { remoteDigest: null } });
      expect(res.body.reason).toMatch(/^The registry could not be asked: .+/);
    } finally {
      cleanup('container', gone);
      cleanup('image', `${goneRepo}:latest`);
    }
  });

  it('leaves the app as it was when the pull fails', async () => {
    const broken = uniqueName('update-broken');
    const missingRef = `${testEngine().registry}/berth-t-never-pushed-${randomBytes(3).toString('hex')}/x:latest`;
    dockerCli(['tag', testEngine().image, missingRef]);
    containers.push(broken);
    try {
      runTicker(broken, [], missingRef);
      const id = inspect<Inspected>(broken).Id;
      const res = await t.client.post<ApiError>(`/api/apps/${broken}/update`);
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.body.detail).toContain(`Updating ${broken} failed`);
      expect(res.body.detail).toContain('The app was left as it was.');
      expect(inspect<Inspected>(broken)).toMatchObject({ Id: id, State: { Running: true } });
    } finally {
      cleanup('container', broken);
      cleanup('image', missingRef);
    }
  });

  it('answers 404 for an unknown app', async () => {
    expect((await t.client.get('/api/apps/berth-t-update-nonexistent/updates')).status).toBe(404);
    expect((await t.client.post('/api/apps/berth-t-update-nonexistent/update')).status).toBe(404);
  });
});
