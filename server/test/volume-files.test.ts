import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FileContent, FileEntry, FileListing, User } from '@berth/contract';
import { HELPER_LABEL } from '../src/services/volumes';
import { createTestApp, REAUTH, type TestApp, type TestClient } from './helpers/app';
import { dockerCli, testEngine, tryDockerCli } from './helpers/engine';
import { uniqueName } from './images-fixtures';
import { cookieHeader, listen } from './apps-fixtures';

let t: TestApp;
let base: string;
let viewer: TestClient;
const volume = uniqueName('vfiles');
const app = uniqueName('vfiles-app');
const files = (suffix = '') => `/api/resources/volumes/${volume}/files${suffix}`;
const q = (path: string) => `?path=${encodeURIComponent(path)}`;
/** The volume as a container sees it (a fresh one each time, never a helper of Berth's). */
const inVolume = (script: string) =>
  dockerCli(['run', '--rm', '-v', `${volume}:/v`, testEngine().image, 'sh', '-c', script]);
const helpersLeft = () =>
  dockerCli(['ps', '-aq', '--filter', `label=${HELPER_LABEL}=files`, '--filter', `volume=${volume}`]).trim();

async function setViewerFiles(value: 'allow' | 'deny') {
  const put = await t.client.request('PUT', '/api/environments/local/policy', { viewer_files: value });
  expect(put.status, put.text).toBe(200);
}

beforeAll(async () => {
  t = await createTestApp({ HELPER_IMAGE: testEngine().image });
  base = await listen(t.app);
  dockerCli(['volume', 'create', '--label', 'berth.test=1', volume]);
  inVolume(
    'mkdir /v/conf && echo "port=80" > /v/conf/app.ini && chown 1000:1000 /v/conf/app.ini && chmod 0640 /v/conf/app.ini',
  );
  const made = await t.client.post<User>('/api/users', {
    email: 'vfiles-viewer@berth.test',
    password: 'viewer-password-long',
    role: 'viewer',
    ...REAUTH,
  });
  expect(made.status, made.text).toBe(200);
  viewer = t.anon();
  await viewer.login('vfiles-viewer@berth.test', 'viewer-password-long');
});

afterAll(async () => {
  tryDockerCli(['rm', '-f', app]);
  tryDockerCli(['volume', 'rm', '-f', volume]);
  await t?.close();
});

describe('files of a volume', () => {
  it('lists a folder and edits a file, keeping its mode and owner, through a helper that goes away', async () => {
    const root = await t.client.get<FileListing>(files() + q('/'));
    expect(root.status, root.text).toBe(200);
    expect(root.body.entries.map((e) => e.name)).toEqual(['conf']);
    const conf = await t.client.get<FileListing>(files() + q('/conf'));
    expect(conf.body.entries[0]).toMatchObject({
      path: '/conf/app.ini',
      type: 'file',
      mode: '0640',
      owner: '1000:1000',
    });

    const put = await t.client.request<FileContent>('PUT', files('/content') + q('/conf/app.ini'), {
      content: 'port=8080\n',
    });
    expect(put.status, put.text).toBe(200);
    expect(inVolume('cat /v/conf/app.ini; stat -c "%a %u:%g" /v/conf/app.ini')).toBe('port=8080\n640 1000:1000\n');
    const read = await t.client.get<FileContent>(files('/content') + q('/conf/app.ini'));
    expect(read.body.content).toBe('port=8080\n');
    expect(helpersLeft()).toBe('');
  });

  it('makes a folder, takes an upload, downloads it as a tar and deletes it', async () => {
    expect((await t.client.post<FileEntry>(files('/mkdir'), { path: '/data' })).status).toBe(200);
    const up = await fetch(base + files('/upload') + q('/data') + '&name=hello.txt', {
      method: 'POST',
      headers: {
        cookie: cookieHeader(t.client),
        'x-csrf-token': t.client.cookies.get('csrf_access_token')!,
        'content-type': 'application/octet-stream',
      },
      body: 'hello volume\n',
    });
    expect(up.status, await up.clone().text()).toBe(200);
    expect(inVolume('cat /v/data/hello.txt')).toBe('hello volume\n');

    const res = await fetch(base + files('/download') + q('/data'), { headers: { cookie: cookieHeader(t.client) } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toContain('data.tar');
    const tar = Buffer.from(await res.arrayBuffer());
    expect(spawnSync('tar', ['-xO', 'data/hello.txt'], { input: tar }).stdout.toString()).toBe('hello volume\n');

    const del = await t.client.delete(files() + q('/data'));
    expect(del.status, del.text).toBe(200);
    expect(inVolume('test -e /v/data || echo gone')).toBe('gone\n');
    expect(helpersLeft()).toBe('');
  });

  it('lets a viewer read only when the policy allows it, never write; an app in use keeps running', async () => {
    // The volume in use by a running app: helpers mount it beside it.
    dockerCli([
      'run',
      '-d',
      '--name',
      app,
      '--label',
      'berth.test=1',
      '-v',
      `${volume}:/v`,
      testEngine().image,
      'sleep',
      '3600',
    ]);
    const refused = await viewer.get<{ code: string; detail: string }>(files() + q('/conf'));
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({
      code: 'policy_denied',
      detail: expect.stringMatching(/Viewers browse files/),
    });
    // The same rule holds for an app's files.
    expect((await viewer.get(`/api/apps/${app}/files` + q('/etc'))).status).toBe(403);

    await setViewerFiles('allow');
    try {
      expect((await viewer.get<FileListing>(files() + q('/conf'))).status).toBe(200);
      expect((await viewer.get<FileContent>(files('/content') + q('/conf/app.ini'))).body.content).toBe('port=8080\n');
      expect((await viewer.get(`/api/apps/${app}/files` + q('/etc'))).status).toBe(200);
      const write = await viewer.request('PUT', files('/content') + q('/conf/app.ini'), { content: 'x' });
      expect(write.status).toBe(403);
      expect((await viewer.post(files('/mkdir'), { path: '/v2' })).status).toBe(403);
      expect((await viewer.delete(files() + q('/conf'))).status).toBe(403);
    } finally {
      await setViewerFiles('deny');
    }
    expect(inVolume('cat /v/conf/app.ini; ls /v')).toBe('port=8080\nconf\n');
    expect(dockerCli(['inspect', '-f', '{{.State.Running}}', app]).trim()).toBe('true');
  });

  it('refuses ../ and an unknown volume', async () => {
    expect((await t.client.get(files() + q('/conf/../..'))).status).toBe(400);
    expect((await t.client.get(`/api/resources/volumes/${volume}-nope/files` + q('/'))).status).toBe(404);
  });
});
