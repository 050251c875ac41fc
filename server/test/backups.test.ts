import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiError, BackupArchive, BackupDestination, BackupJob, BackupRun, RestoreResult } from '@berth/contract';
import { createTestApp, type TestApp } from './helpers/app';
import { dockerCli, testEngine } from './helpers/engine';
import { cleanup, uniqueName } from './images-fixtures';
import { fillVolume, volumeCreate } from './backups-fixtures';

const B = '/api/backups';

describe('backups API: destinations, jobs, retention, restore, drills', () => {
  let t: TestApp;
  let dir: string;
  const volumes: string[] = [];
  const source = uniqueName('bkapi');

  beforeAll(async () => {
    t = await createTestApp({ HELPER_IMAGE: testEngine().image });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'berth-bkapi-'));
    volumes.push(source);
    volumeCreate(source);
    fillVolume(source, 300);
  }, 120_000);
  afterAll(async () => {
    cleanup('volume', ...volumes);
    fs.rmSync(dir, { recursive: true, force: true });
    await t?.close();
  });

  async function job(destination: number, extra: object = {}): Promise<BackupJob> {
    const res = await t.client.post<BackupJob>(`${B}/jobs`, {
      name: uniqueName('job'),
      volumes: [source],
      destination_id: destination,
      ...extra,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body;
  }

  it('refuses a folder inside COMPOSE_DIR or the data folder', async () => {
    const res = await t.client.post<ApiError>(`${B}/destinations`, {
      kind: 'folder',
      name: 'bad',
      path: path.join(t.dataDir, 'compose', 'x'),
    });
    expect(res.status).toBe(400);
    expect(res.body.detail).toMatch(/outside COMPOSE_DIR/);
  });

  it('backs up to a folder, keeps the newest N, restores byte-identical, and a drill catches a flipped byte', async () => {
    const dest = await t.client.post<BackupDestination>(`${B}/destinations`, {
      kind: 'folder',
      name: 'host',
      path: dir,
    });
    expect(dest.status, JSON.stringify(dest.body)).toBe(200);
    const j = await job(dest.body.id, { keep_last: 2 });
    const runs: BackupRun[] = [];
    for (let i = 0; i < 3; i++) {
      const run = await t.client.post<BackupRun>(`${B}/jobs/${j.id}/run`);
      expect(run.body).toMatchObject({ outcome: 'ok', error: null });
      runs.push(run.body);
      await new Promise((r) => setTimeout(r, 1100)); // names carry the second
    }
    const archives = (await t.client.get<BackupArchive[]>(`${B}/archives?job_id=${j.id}`)).body;
    expect(archives.map((a) => a.name)).toEqual([runs[2]!.archive, runs[1]!.archive]);
    expect(fs.existsSync(path.join(dir, runs[0]!.archive!))).toBe(false);
    expect(fs.existsSync(path.join(dir, `${runs[2]!.archive!}.json`))).toBe(true);
    expect(archives[0]!.name).toMatch(/\.tar\.zst$/);

    const into = uniqueName('bkapi-into');
    volumes.push(into);
    const restored = await t.client.post<RestoreResult>(`${B}/restore`, {
      archive_id: archives[0]!.id,
      volume: source,
      into,
    });
    expect(restored.status).toBe(200);
    expect(restored.body.verified).toBe(true);
    expect(restored.body.tree.sha256).toBe(archives[0]!.manifest.volumes[0]!.sha256);
    expect(dockerCli(['run', '--rm', '-v', `${into}:/v`, testEngine().image, 'readlink', '/v/link1']).trim()).toBe(
      'd/f1',
    );
    // Restoring over an existing volume needs the confirmation.
    const again = await t.client.post<ApiError>(`${B}/restore`, { archive_id: archives[0]!.id, volume: source, into });
    expect(again.status).toBe(409);

    const drill = await t.client.post<BackupRun>(`${B}/jobs/${j.id}/drill`);
    expect(drill.body).toMatchObject({ kind: 'drill', outcome: 'ok' });
    const jobs = (await t.client.get<BackupJob[]>(`${B}/jobs`)).body;
    expect(jobs.find((x) => x.id === j.id)?.last_verified_at).toBeTruthy();

    // One byte flipped in the middle of the newest archive: the drill fails and says so.
    const file = path.join(dir, archives[0]!.name);
    const bytes = fs.readFileSync(file);
    bytes[Math.floor(bytes.length / 2)]! ^= 0xff;
    fs.writeFileSync(file, bytes);
    const bad = await t.client.post<BackupRun>(`${B}/jobs/${j.id}/drill`);
    expect(bad.body.outcome).toBe('failed');
    const after = (await t.client.get<BackupArchive[]>(`${B}/archives?job_id=${j.id}`)).body[0]!;
    expect(after.verify_error).toBeTruthy();
    const left = (await t.client.get<{ Name: string }[]>('/api/resources/volumes/')).body.filter((v) =>
      v.Name.startsWith('berth-drill-'),
    );
    expect(left).toEqual([]);
  }, 300_000);

  it('backs up encrypted to SFTP (pinned host key); a wrong passphrase is refused', async () => {
    const env = process.env;
    const remote = `/home/${env.BERTH_TEST_SSH_USER}/berth-bk-${Date.now()}`;
    const dest = await t.client.post<BackupDestination>(`${B}/destinations`, {
      kind: 'sftp',
      name: 'sftp',
      host: env.BERTH_TEST_SSH_HOST,
      port: Number(env.BERTH_TEST_SSH_PORT),
      username: env.BERTH_TEST_SSH_USER,
      path: remote,
      host_key: env.BERTH_TEST_SSH_HOST_KEY,
      private_key: fs.readFileSync(env.BERTH_TEST_SSH_KEY!, 'utf8'),
    });
    expect(dest.status, JSON.stringify(dest.body)).toBe(200);
    expect(JSON.stringify(dest.body)).not.toContain('PRIVATE KEY');
    const j = await job(dest.body.id, { passphrase: 'a long passphrase' });
    const run = await t.client.post<BackupRun>(`${B}/jobs/${j.id}/run`);
    expect(run.body).toMatchObject({ outcome: 'ok' });
    expect(run.body.archive).toMatch(/\.tar\.zst\.age$/);
    const archive = (await t.client.get<BackupArchive[]>(`${B}/archives?job_id=${j.id}`)).body[0]!;

    const into = uniqueName('bkapi-sftp');
    volumes.push(into);
    const wrong = await t.client.post<ApiError>(`${B}/restore`, {
      archive_id: archive.id,
      volume: source,
      into,
      passphrase: 'not the passphrase',
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.detail).toMatch(/passphrase is wrong/);
    const right = await t.client.post<RestoreResult>(`${B}/restore`, { archive_id: archive.id, volume: source, into });
    expect(right.body.verified).toBe(true);

    // A server showing another host key is refused.
    const other = await t.client.post<ApiError>(`${B}/destinations`, {
      kind: 'sftp',
      name: 'sftp-other',
      host: env.BERTH_TEST_SSH_HOST,
      port: Number(env.BERTH_TEST_SSH_PORT),
      username: env.BERTH_TEST_SSH_USER,
      path: remote,
      host_key: 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOtherOtherOtherOtherOtherOtherOtherOtherOth',
      private_key: fs.readFileSync(env.BERTH_TEST_SSH_KEY!, 'utf8'),
    });
    expect(other.status).toBe(400);
  }, 300_000);
});
