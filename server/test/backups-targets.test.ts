import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiError, BackupArchive, BackupDestination, BackupJob, BackupRun, RestoreResult } from '@berth/contract';
import { BERTH_ARCHIVE_WARNING } from '@berth/contract';
import { createTestApp, TestClient, type TestApp } from './helpers/app';
import { dockerCli, testEngine } from './helpers/engine';
import { projectContainers, trackedProjects } from './helpers/compose-projects';

const B = '/api/backups';

/** A service writing to a named volume, and one without; SIGKILL stops busybox sleep at once. */
const projectYaml = (image: string) => `services:
  db:
    image: ${image}
    command: ["sh", "-c", "echo \${GREETING} > /data/greeting; exec sleep 3600"]
    stop_signal: SIGKILL
    volumes: ["data:/data"]
  side:
    image: ${image}
    command: ["sleep", "3600"]
    stop_signal: SIGKILL
volumes:
  data: {}
`;

const startedAt = (container: string) =>
  Date.parse(dockerCli(['inspect', '-f', '{{.State.StartedAt}}', container]).trim());

describe('backup targets: a compose project, Berth itself', () => {
  let t: TestApp;
  let dir: string;
  let dest: BackupDestination;
  const projects = trackedProjects();

  beforeAll(async () => {
    t = await createTestApp({ HELPER_IMAGE: testEngine().image });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'berth-bktargets-'));
    dest = (await t.client.post<BackupDestination>(`${B}/destinations`, { kind: 'folder', name: 'host', path: dir }))
      .body;
  }, 60_000);
  afterAll(async () => {
    projects.cleanup();
    fs.rmSync(dir, { recursive: true, force: true });
    await t?.close();
  });

  const newJob = async (target: object) => {
    const res = await t.client.post<BackupJob>(`${B}/jobs`, {
      name: `job-${Date.now()}`,
      target,
      destination_id: dest.id,
    });
    expect(res.status, res.text).toBe(200);
    return res.body;
  };
  const newest = async (job: BackupJob) =>
    (await t.client.get<BackupArchive[]>(`${B}/archives?job_id=${job.id}`)).body[0]!;

  it('backs up a project with stop-for-copy (its containers come back) and restores it under another name', async () => {
    const name = projects.name('bk');
    const made = await t.client.post('/api/compose/', { name, content: projectYaml(testEngine().image) });
    expect(made.status, made.text).toBe(200);
    fs.writeFileSync(path.join(t.dataDir, 'compose', name, '.env'), 'GREETING=hello-from-env\n', { mode: 0o600 });
    const up = await t.client.post(`/api/compose/${name}/actions/up`);
    expect(up.status, up.text).toBe(200);
    const before = projectContainers(name);
    expect(before.map((c) => c.state)).toEqual(['running', 'running']);
    const startedBefore = before.map((c) => startedAt(c.name));

    const missing = await t.client.post<ApiError>(`${B}/jobs`, {
      name: 'no-such-project',
      target: { kind: 'project', project: 'no-such-project' },
      destination_id: dest.id,
    });
    expect(missing.status).toBe(404);

    const job = await newJob({ kind: 'project', project: name, mode: 'stop' });
    expect(job).toMatchObject({ volumes: [], target: { kind: 'project', project: name, mode: 'stop' }, warning: null });
    const run = await t.client.post<BackupRun>(`${B}/jobs/${job.id}/run`);
    expect(run.body, run.text).toMatchObject({ outcome: 'ok' });
    // Stopped for the copy and started again: every container runs, each started anew.
    const after = projectContainers(name);
    expect(after.map((c) => c.state)).toEqual(['running', 'running']);
    after.forEach((c, i) => expect(startedAt(c.name) > startedBefore[i]!).toBe(true));

    const archive = await newest(job);
    expect(archive.manifest.folders?.map((f) => f.name)).toEqual(['project']);
    expect(archive.manifest.volumes.map((v) => v.name)).toEqual([`${name}_data`]);
    const drill = await t.client.post<BackupRun>(`${B}/archives/${archive.id}/verify`);
    expect(drill.body).toMatchObject({ outcome: 'ok' });

    // Over the project itself only with the confirmation.
    const refused = await t.client.post<ApiError>(`${B}/restore`, { kind: 'project', archive_id: archive.id });
    expect(refused.status).toBe(409);
    const copy = projects.name('bk-copy');
    const restored = await t.client.post<RestoreResult>(`${B}/restore`, {
      kind: 'project',
      archive_id: archive.id,
      project: copy,
    });
    expect(restored.status, restored.text).toBe(200);
    expect(restored.body.verified).toBe(true);
    expect(restored.body.restored.map((r) => r.into)).toEqual([
      path.join(fs.realpathSync(path.join(t.dataDir, 'compose')), copy),
      `${copy}_data`,
    ]);
    expect(fs.readFileSync(path.join(t.dataDir, 'compose', copy, '.env'), 'utf8')).toBe('GREETING=hello-from-env\n');
    const greeting = dockerCli(['run', '--rm', '-v', `${copy}_data:/v`, testEngine().image, 'cat', '/v/greeting']);
    expect(greeting.trim()).toBe('hello-from-env');
  }, 240_000);

  it('backs up Berth itself (with a warning) and the archive restored into a new data folder starts a Berth that signs in', async () => {
    const user = { email: 'restored@berth.test', password: 'a-long-restored-password', role: 'viewer' };
    const made = await t.client.post('/api/users', { ...user, current_password: 'correct-horse-battery-staple' });
    expect(made.status, made.text).toBe(200);
    const job = await newJob({ kind: 'berth', include_stats: true });
    expect(job.warning).toBe(BERTH_ARCHIVE_WARNING);
    const run = await t.client.post<BackupRun>(`${B}/jobs/${job.id}/run`);
    expect(run.body, run.text).toMatchObject({ outcome: 'ok' });
    const archive = await newest(job);
    expect(archive.manifest.warning).toBe(BERTH_ARCHIVE_WARNING);

    const into = path.join(dir, 'restored-data');
    const inside = await t.client.post<ApiError>(`${B}/restore`, {
      kind: 'berth',
      archive_id: archive.id,
      into_dir: path.join(t.dataDir, 'x'),
    });
    expect(inside.status).toBe(400);
    const restored = await t.client.post<RestoreResult>(`${B}/restore`, {
      kind: 'berth',
      archive_id: archive.id,
      into_dir: into,
    });
    expect(restored.status, restored.text).toBe(200);
    expect(restored.body.verified).toBe(true);
    expect(fs.readdirSync(into).sort()).toEqual(['berth.db', 'keys', 'stats-history.db']);

    const again = await createTestApp({ DATA_DIR: into }, { signIn: false });
    try {
      // The session made by the first Berth is good on the restored one (same signing key, same sessions)...
      const carried = new TestClient(again.app);
      carried.cookies = new Map(t.client.cookies);
      expect((await carried.get('/api/auth/me')).status).toBe(200);
      // ...and an account made before the backup signs in.
      const fresh = again.anon();
      await fresh.login(user.email, user.password);
      expect((await fresh.get<{ username: string }>('/api/auth/me')).body.username).toBe(user.email);
    } finally {
      await again.close();
    }
  }, 120_000);
});
