import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App, AppCommitResult, StatsSample } from '@berth/contract';
import { createTestApp, type TestApp } from './helpers/app';
import { dockerCli, testEngine } from './helpers/engine';
import { cleanup, uniqueName } from './images-fixtures';
import { cookieHeader, inspect, listen, SseReader } from './apps-fixtures';

interface Inspected {
  Id: string;
  Name: string;
  HostConfig: {
    Memory: number;
    MemorySwap: number;
    NanoCpus: number;
    PidsLimit: number | null;
    RestartPolicy: { Name: string; MaximumRetryCount: number };
  };
  NetworkSettings: { Networks: Record<string, { IPAddress: string }> };
}

let t: TestApp;
// One running app shared by every case (renamed by the first); `current` follows its name.
const first = uniqueName('inplace');
let current = first;
const renamed = uniqueName('inplace-new');
const composed = uniqueName('inplace-svc');
const network = uniqueName('inplace-net');
const repo = `127.0.0.1:5000/${uniqueName('inplace-commit')}`;
const fromCommit = uniqueName('inplace-run');
let id = '';
const MiB = 1024 * 1024;

beforeAll(async () => {
  t = await createTestApp();
  const { image } = testEngine();
  const common = ['--label', 'berth.test=1', '--stop-timeout', '1'];
  // 20 MiB held in /dev/shm counts as the container's memory: a limit below it cannot be set.
  id = dockerCli([
    'run',
    '-d',
    '--name',
    first,
    ...common,
    '--memory',
    '64m',
    '--memory-swap',
    '128m',
    image,
    'sh',
    '-c',
    'dd if=/dev/zero of=/dev/shm/ballast bs=1M count=20 2>/dev/null; sleep 3600',
  ]).trim();
  const labels = [
    '--label',
    `com.docker.compose.project=p${first.slice(-8)}`,
    '--label',
    'com.docker.compose.service=web',
  ];
  dockerCli(['run', '-d', '--name', composed, ...common, ...labels, image, 'sleep', '3600']);
  dockerCli(['network', 'create', '--label', 'berth.test=1', '--subnet', '10.231.7.0/24', network]);
});

afterAll(async () => {
  cleanup('container', first, renamed, composed, fromCommit);
  cleanup('network', network);
  cleanup('image', `${repo}:kept`);
  await t?.close();
});

describe('apps changed in place', () => {
  it('renames a running app: listed under its new name, the same container, still running, its stats going on', async () => {
    const base = await listen(t.app);
    const dash = await SseReader.open(base, '/api/apps/stats', cookieHeader(t.client));
    const samples = (name: string) => dash.of<StatsSample>('update').filter((s) => s.name === name);
    await dash.waitFor(() => samples(first).length > 0, 'a sample under the old name');
    const res = await t.client.post<App>(`/api/apps/${first}/rename`, { new_name: renamed });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ name: renamed, Id: id, State: { Status: 'running' } });
    current = renamed;
    const list = await t.client.get<App[]>('/api/apps/');
    const names = list.body.map((a) => a.name);
    expect(names).toContain(renamed);
    expect(names).not.toContain(first);
    expect((await t.client.get(`/api/apps/${first}`)).status).toBe(404);
    // The dashboard's stream, open across the rename, goes on under the new name; the app's own under it too.
    await dash.waitFor(() => samples(renamed).length > 0, 'a sample under the new name');
    dash.close();
    const own = await SseReader.open(base, `/api/apps/${renamed}/stats`, cookieHeader(t.client));
    await own.waitFor((r) => r.of<StatsSample>('update').length > 0, "a sample of the app's own stream");
    own.close();
  });

  it('refuses to rename a compose service, pointing at its project, and a name already taken', async () => {
    const res = await t.client.post<{ detail: string; code: string }>(`/api/apps/${composed}/rename`, {
      new_name: uniqueName('x'),
    });
    expect(res.status).toBe(409);
    expect(res.body.detail).toMatch(/compose project p\w+.*rename the service in the project/);
    const taken = await t.client.post<{ code: string }>(`/api/apps/${current}/rename`, { new_name: composed });
    expect(taken.status).toBe(409);
    expect(inspect<Inspected>(composed).Name).toBe(`/${composed}`);
  });

  it('a memory limit below what the app uses is a 409 with the engine reason, and nothing changes', async () => {
    const before = inspect<Inspected>(current).HostConfig;
    const res = await t.client.patch<{ detail: string; code: string }>(`/api/apps/${current}/resources`, {
      memory: 8 * MiB,
      memory_swap: 16 * MiB,
      cpus: 0.5,
    });
    expect(res.status, res.text).toBe(409);
    expect(res.body.code).toBe('conflict');
    expect(res.body.detail).toMatch(/memory limit/i);
    expect(inspect<Inspected>(current).HostConfig).toEqual(before);
  });

  it('raises limits and sets the restart policy on the same container', async () => {
    const res = await t.client.patch<App>(`/api/apps/${current}/resources`, {
      memory: 96 * MiB,
      memory_swap: 192 * MiB,
      cpus: 0.5,
      pids_limit: 100,
      restart_policy: { name: 'on-failure', maximum_retry_count: 3 },
    });
    expect(res.status, res.text).toBe(200);
    const after = inspect<Inspected>(current);
    expect(after.Id).toBe(id);
    expect(after.HostConfig).toMatchObject({
      Memory: 96 * MiB,
      MemorySwap: 192 * MiB,
      NanoCpus: 500_000_000,
      PidsLimit: 100,
      RestartPolicy: { Name: 'on-failure', MaximumRetryCount: 3 },
    });
    expect(res.body.HostConfig).toMatchObject({ Memory: 96 * MiB });
    const bad = await t.client.patch(`/api/apps/${current}/resources`, {
      restart_policy: { name: 'always', maximum_retry_count: 2 },
    });
    expect(bad.status).toBe(400);
  });

  it('connects and disconnects a network live: the address appears and goes', async () => {
    const res = await t.client.post<App>(`/api/apps/${current}/networks/${network}/connect`, {
      aliases: ['db'],
      ipv4_address: '10.231.7.42',
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.NetworkSettings?.Networks?.[network]?.IPAddress).toBe('10.231.7.42');
    expect(inspect<Inspected>(current).NetworkSettings.Networks[network]?.IPAddress).toBe('10.231.7.42');
    expect(dockerCli(['exec', current, 'ip', '-4', 'addr'])).toContain('10.231.7.42');
    expect((await t.client.post(`/api/apps/${current}/networks/${network}/connect`, {})).status).toBe(409);

    const off = await t.client.post<App>(`/api/apps/${current}/networks/${network}/disconnect`, {});
    expect(off.status, off.text).toBe(200);
    expect(off.body.NetworkSettings?.Networks?.[network]).toBeUndefined();
    expect(dockerCli(['exec', current, 'ip', '-4', 'addr'])).not.toContain('10.231.7.42');
    expect(inspect<Inspected>(current).Id).toBe(id);
    expect((await t.client.post(`/api/apps/${current}/networks/${uniqueName('none')}/connect`, {})).status).toBe(404);
  });

  it('commits an app with a file written in it; a container of the image finds the file', async () => {
    dockerCli(['exec', current, 'sh', '-c', 'echo kept-by-commit > /root/note.txt']);
    const res = await t.client.post<AppCommitResult>(`/api/apps/${current}/commit`, {
      repo,
      tag: 'kept',
      comment: 'before an edit',
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.image).toBe(`${repo}:kept`);
    expect(res.body.id).toMatch(/^sha256:/);
    const out = dockerCli([
      'run',
      '--name',
      fromCommit,
      '--label',
      'berth.test=1',
      `${repo}:kept`,
      'cat',
      '/root/note.txt',
    ]);
    expect(out.trim()).toBe('kept-by-commit');
    const bad = await t.client.post(`/api/apps/${current}/commit`, { repo: `${repo}:tagged`, tag: 'x' });
    expect(bad.status).toBe(400);
  });
});
