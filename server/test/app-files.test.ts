import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FileContent, FileEntry, FileListing, User } from '@berth/contract';
import { createTestApp, REAUTH, type TestApp, type TestClient } from './helpers/app';
import { dockerCli, testEngine } from './helpers/engine';
import { cleanup, uniqueName } from './images-fixtures';
import { cookieHeader, listen } from './apps-fixtures';

let t: TestApp;
let base: string;
let viewer: TestClient;
let operator: TestClient;
// One running and one stopped busybox app shared by every case.
const running = uniqueName('files-run');
const stopped = uniqueName('files-stop');
const files = (app: string, suffix = '') => `/api/apps/${app}/files${suffix}`;
const q = (path: string) => `?path=${encodeURIComponent(path)}`;
const exec = (...cmd: string[]) => dockerCli(['exec', running, ...cmd]);
const MB = 1024 * 1024;

beforeAll(async () => {
  t = await createTestApp();
  base = await listen(t.app);
  const { image } = testEngine();
  const common = ['--label', 'berth.test=1', '--stop-timeout', '1'];
  dockerCli(['run', '-d', '--name', running, ...common, image, 'sleep', '3600']);
  dockerCli(['create', '--name', stopped, ...common, image, 'sleep', '3600']);
  const made = await t.client.post<User>('/api/users', {
    email: 'files-viewer@berth.test',
    password: 'viewer-password-long',
    role: 'viewer',
    ...REAUTH,
  });
  expect(made.status, made.text).toBe(200);
  viewer = t.anon();
  await viewer.login('files-viewer@berth.test', 'viewer-password-long');
  const op = await t.client.post<User>('/api/users', {
    email: 'files-operator@berth.test',
    password: 'operator-password-long',
    role: 'operator',
    ...REAUTH,
  });
  expect(op.status, op.text).toBe(200);
  operator = t.anon();
  await operator.login('files-operator@berth.test', 'operator-password-long');
});

afterAll(async () => {
  cleanup('container', running, stopped);
  await t?.close();
});

describe('files of an app', () => {
  it('lists /etc of a running and of a stopped app, with types, modes, owners and link targets', async () => {
    for (const app of [running, stopped]) {
      const res = await t.client.get<FileListing>(files(app) + q('/etc'));
      expect(res.status, res.text).toBe(200);
      expect(res.body.path).toBe('/etc');
      const passwd = res.body.entries.find((e) => e.name === 'passwd');
      expect(passwd).toMatchObject({ path: '/etc/passwd', type: 'file', owner: expect.stringMatching(/^(root|0):/) });
      expect(passwd!.size).toBeGreaterThan(0);
      expect(passwd!.mode).toBe('0644');
    }
    // busybox's applets are symlinks in /bin; a symlink to a folder is followed when listed.
    const bin = await t.client.get<FileListing>(files(running) + q('/bin'));
    expect(bin.body.entries.find((e) => e.name === 'ls')).toMatchObject({
      type: 'symlink',
      link_target: '/bin/busybox',
    });
    exec('ln', '-s', '/etc', '/root/etc-link');
    const followed = await t.client.get<FileListing>(files(running) + q('/root/etc-link'));
    expect(followed.body.path).toBe('/etc');
    expect((await t.client.get(files(running) + q('/nope'))).status).toBe(404);
  });

  it('downloads a folder as a tar with the same members as docker cp', async () => {
    const res = await fetch(base + files(running, '/download') + q('/etc'), {
      headers: { cookie: cookieHeader(t.client) },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toContain('etc.tar');
    const ours = Buffer.from(await res.arrayBuffer());
    const members = (tarball: Buffer) =>
      spawnSync('tar', ['-t'], { input: tarball }).stdout.toString().split('\n').filter(Boolean).sort();
    const theirs = spawnSync('docker', ['cp', `${running}:/etc`, '-'], { env: process.env, maxBuffer: 64 * MB }).stdout;
    expect(members(ours)).toEqual(members(theirs));
    expect(members(ours)).toContain('etc/passwd');
  });

  it('writes /etc/motd, read back with docker exec; an existing file keeps its mode and owner', async () => {
    const put = await t.client.request<FileContent>('PUT', files(running, '/content') + q('/etc/motd'), {
      content: 'Welcome aboard\n',
    });
    expect(put.status, put.text).toBe(200);
    expect(exec('cat', '/etc/motd')).toBe('Welcome aboard\n');
    const read = await t.client.get<FileContent>(files(running, '/content') + q('/etc/motd'));
    expect(read.body).toMatchObject({ content: 'Welcome aboard\n', type: 'file', mode: '0644' });

    exec('sh', '-c', 'echo secret=1 > /root/app.conf && chown 1000:1000 /root/app.conf && chmod 0640 /root/app.conf');
    const edit = await t.client.request('PUT', files(running, '/content') + q('/root/app.conf'), { content: 'x=2\n' });
    expect(edit.status, edit.text).toBe(200);
    expect(exec('stat', '-c', '%a %u:%g', '/root/app.conf').trim()).toBe('640 1000:1000');
    expect(exec('cat', '/root/app.conf')).toBe('x=2\n');
  });

  it('refuses a binary file with a clear detail, and a folder', async () => {
    exec('sh', '-c', "printf 'ab\\000cd' > /root/blob.dat");
    const bin = await t.client.get<{ detail: string }>(files(running, '/content') + q('/root/blob.dat'));
    expect(bin.status).toBe(400);
    expect(bin.body.detail).toMatch(/binary file: download it/);
    expect((await t.client.get(files(running, '/content') + q('/etc'))).status).toBe(400);
    expect((await t.client.get(files(running, '/content') + q('/bin/busybox'))).status).toBe(413);
  });

  it('makes a folder and deletes it; deleting in a stopped app is a 409', async () => {
    const made = await t.client.post<FileEntry>(files(running, '/mkdir'), { path: '/root/new-dir' });
    expect(made.status, made.text).toBe(200);
    expect(exec('sh', '-c', 'test -d /root/new-dir && echo yes').trim()).toBe('yes');
    expect((await t.client.post(files(running, '/mkdir'), { path: '/root/new-dir' })).status).toBe(409);
    const del = await t.client.delete(files(running) + q('/root/new-dir'));
    expect(del.status, del.text).toBe(200);
    expect(exec('sh', '-c', 'test -e /root/new-dir || echo gone').trim()).toBe('gone');
    expect((await t.client.delete(files(stopped) + q('/etc/passwd'))).status).toBe(409);
  });

  it('refuses ../ escapes and writes by a viewer, changing nothing', async () => {
    for (const path of ['/etc/../root', '../etc', 'etc/passwd']) {
      const res = await t.client.get<{ code: string }>(files(running) + q(path));
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('validation_error');
    }
    const escape = await t.client.request('PUT', files(running, '/content') + q('/tmp/../etc/motd'), { content: 'x' });
    expect(escape.status).toBe(400);
    expect((await viewer.request('PUT', files(running, '/content') + q('/etc/motd'), { content: 'x' })).status).toBe(
      403,
    );
    expect((await viewer.post(files(running, '/mkdir'), { path: '/root/v' })).status).toBe(403);
    expect((await viewer.delete(files(running) + q('/etc/motd'))).status).toBe(403);
    expect(exec('cat', '/etc/motd')).toBe('Welcome aboard\n');
  });

  it("refuses an operator's writes into a container that binds a host path the policy keeps from operators", async () => {
    // An admin made this app with a bind of a host folder; the default policy lets operators bind nothing.
    const hostDir = fs.mkdtempSync(path.join(os.tmpdir(), 'berth-files-bind-'));
    fs.writeFileSync(path.join(hostDir, 'keep.txt'), 'host\n');
    const bound = uniqueName('files-bind');
    const { image } = testEngine();
    dockerCli([
      'run',
      '-d',
      '--name',
      bound,
      '--label',
      'berth.test=1',
      '-v',
      `${hostDir}:/host`,
      image,
      'sleep',
      '3600',
    ]);
    try {
      const write = await operator.request<{ code: string; detail: string }>(
        'PUT',
        files(bound, '/content') + q('/host/keep.txt'),
        { content: 'owned\n' },
      );
      expect(write.status, write.text).toBe(403);
      expect(write.body.code).toBe('policy_denied');
      expect(write.body.detail).toContain(hostDir);
      expect((await operator.post(files(bound, '/mkdir'), { path: '/root/x' })).status).toBe(403);
      expect(fs.readFileSync(path.join(hostDir, 'keep.txt'), 'utf8')).toBe('host\n');
      // The same operator writes into an app without such a bind, and an admin into this one.
      const plain = await operator.request('PUT', files(running, '/content') + q('/root/op.txt'), { content: 'op\n' });
      expect(plain.status, plain.text).toBe(200);
      const admin = await t.client.request('PUT', files(bound, '/content') + q('/host/keep.txt'), {
        content: 'admin\n',
      });
      expect(admin.status, admin.text).toBe(200);
      expect(fs.readFileSync(path.join(hostDir, 'keep.txt'), 'utf8')).toBe('admin\n');
    } finally {
      cleanup('container', bound);
      fs.rmSync(hostDir, { recursive: true, force: true });
    }
  });

  it('streams a 50 MB upload without holding it in memory', async () => {
    const size = 50 * MB;
    // The client is curl in its own process, reading a file: the RSS measured here is the server's alone.
    const file = path.join(t.dataDir, 'big.bin');
    // Made by dd, so no 50 MB buffer of this process inflates the idle figure.
    spawnSync('dd', ['if=/dev/zero', `of=${file}`, 'bs=1M', 'count=50'], { stdio: 'ignore' });
    global.gc?.();
    const idle = process.memoryUsage().rss;
    let peak = idle;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
    const url = base + files(running, '/upload') + q('/root') + '&name=big.bin';
    const out = await new Promise<string>((resolve, reject) => {
      const curl = spawn('curl', [
        '-sS',
        '-X',
        'POST',
        '-H',
        `cookie: ${cookieHeader(t.client)}`,
        '-H',
        `x-csrf-token: ${t.client.cookies.get('csrf_access_token')!}`,
        '-H',
        'content-type: application/octet-stream',
        '--data-binary',
        `@${file}`,
        url,
      ]);
      let body = '';
      curl.stdout.on('data', (d: Buffer) => (body += d.toString()));
      curl.on('error', reject);
      curl.on('close', (code) => (code === 0 ? resolve(body) : reject(new Error(`curl exited ${code}`))));
    });
    clearInterval(sampler);
    expect((JSON.parse(out) as FileEntry).size, out).toBe(size);
    expect(exec('stat', '-c', '%s', '/root/big.bin').trim()).toBe(String(size));
    console.log(
      `upload of 50 MB: server RSS idle ${(idle / MB).toFixed(1)} MB, peak ${(peak / MB).toFixed(1)} MB, +${((peak - idle) / MB).toFixed(1)} MB`,
    );
    // The issue allows 30 MB; streamed, the rise is ~9 MB. Uncollected chunks alone made it 25 to 35 MB
    // (a buffer per chunk, freed only at a collection), so 20 MB tells the two apart every time.
    expect(peak - idle).toBeLessThan(20 * MB);
  });
});
