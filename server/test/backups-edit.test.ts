import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  ApiError,
  AuditEntry,
  BackupArchive,
  BackupDestination,
  BackupJob,
  BackupRun,
  DestinationTestResult,
  RestoreProgress,
  RestoreResult,
} from '@berth/contract';
import { createTestApp, type TestApp } from './helpers/app';
import { dockerCli, testEngine } from './helpers/engine';
import { cleanup, parseSse, uniqueName } from './images-fixtures';
import { volumeCreate } from './backups-fixtures';

const B = '/api/backups';

describe('backups: editing a job, testing a destination, a restore followed as events', () => {
  let t: TestApp;
  let dir: string;
  const source = uniqueName('bkedit');
  const into = uniqueName('bkedit-into');
  const user = uniqueName('bkedit-user');

  beforeAll(async () => {
    t = await createTestApp({ HELPER_IMAGE: testEngine().image });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'berth-bkedit-'));
    volumeCreate(source);
    dockerCli(['run', '--rm', '-v', `${source}:/v`, testEngine().image, 'sh', '-c', 'echo a > /v/a; mkdir /v/d']);
  }, 120_000);
  afterAll(async () => {
    cleanup('container', user);
    cleanup('volume', source, into);
    fs.rmSync(dir, { recursive: true, force: true });
    await t?.close();
  });

  it('changes only the fields given, refuses bad ones with nothing changed, and audits the change', async () => {
    const dest = await t.client.post<BackupDestination>(`${B}/destinations`, { kind: 'folder', name: 'f', path: dir });
    expect(dest.status, dest.text).toBe(200);
    const tested = await t.client.post<DestinationTestResult>(`${B}/destinations/${dest.body.id}/test`);
    expect(tested.body).toMatchObject({ ok: true });

    const other = await t.client.post<BackupJob>(`${B}/jobs`, {
      name: 'other',
      volumes: [source],
      destination_id: dest.body.id,
    });
    const job = await t.client.post<BackupJob>(`${B}/jobs`, {
      name: 'edit-me',
      volumes: [source],
      destination_id: dest.body.id,
    });
    expect(job.body).toMatchObject({ keep_last: 7, keep_daily: 0, keep_weekly: 0, schedule: null });

    const changed = await t.client.patch<BackupJob>(`${B}/jobs/${job.body.id}`, {
      name: 'edited',
      schedule: '0 3 * * *',
      keep_last: 2,
      keep_daily: 7,
      keep_weekly: 4,
    });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body).toMatchObject({
      name: 'edited',
      schedule: '0 3 * * *',
      drill_schedule: '0 4 * * 0',
      volumes: [source],
      keep_last: 2,
      keep_daily: 7,
      keep_weekly: 4,
    });

    const refused: [object, number, string][] = [
      [{ schedule: '* * * * *' }, 400, 'validation_error'],
      [{ keep_daily: -1 }, 400, 'validation_error'],
      [{ name: other.body.name }, 409, 'conflict'],
      [{ destination_id: 99_999 }, 404, 'not_found'],
    ];
    for (const [body, status, code] of refused) {
      const res = await t.client.patch<ApiError>(`${B}/jobs/${job.body.id}`, body);
      expect([res.status, res.body.code], JSON.stringify(body)).toEqual([status, code]);
    }
    expect((await t.client.patch<ApiError>(`${B}/jobs/99999`, { keep_last: 1 })).status).toBe(404);
    const stored = (await t.client.get<BackupJob[]>(`${B}/jobs`)).body.find((j) => j.id === job.body.id);
    expect(stored).toEqual(changed.body);

    const audit = await t.client.get<AuditEntry[]>('/api/audit?limit=50');
    const patches = audit.body.filter((e) => e.route === '/api/backups/jobs/{id}' && e.method === 'PATCH');
    expect(patches.map((e) => e.status).sort()).toEqual([200, 400, 400, 404, 404, 409]);
  });

  it('streams a restore over a volume in use: checking, stopping, writing, starting, then the answer', async () => {
    const job = (await t.client.get<BackupJob[]>(`${B}/jobs`)).body.find((j) => j.name === 'edited')!;
    const run = await t.client.post<BackupRun>(`${B}/jobs/${job.id}/run`);
    expect(run.body.outcome, run.body.error ?? '').toBe('ok');
    const archive = (await t.client.get<BackupArchive[]>(`${B}/archives?job_id=${job.id}`)).body[0]!;

    volumeCreate(into);
    dockerCli([
      'run',
      '-d',
      '--name',
      user,
      '--label',
      'berth.test=1',
      '-v',
      `${into}:/v`,
      testEngine().image,
      // Exits on SIGTERM at once (a bare sleep as PID 1 ignores it, and the stop waits 10 s for the kill).
      'sh',
      '-c',
      'trap "exit 0" TERM; sleep 600 & wait',
    ]);
    const res = await t.client.post<string>(
      `${B}/restore`,
      { archive_id: archive.id, volume: source, into, overwrite: true },
      { accept: 'text/event-stream' },
    );
    expect(res.status).toBe(200);
    const events = parseSse(res.text);
    const progress = events.filter((e) => e.event === 'progress').map((e) => e.data as RestoreProgress);
    expect([...new Set(progress.map((p) => p.phase))]).toEqual(['checking', 'stopping', 'writing', 'starting']);
    const lastWrite = progress.filter((p) => p.phase === 'writing').at(-1)!;
    expect(lastWrite).toEqual({ phase: 'writing', bytes: archive.bytes, total: archive.bytes });
    const done = events.at(-1)!;
    expect(done.event).toBe('done');
    expect(done.data as RestoreResult).toMatchObject({ volume: into, verified: true });
    expect(dockerCli(['inspect', '-f', '{{.State.Running}}', user]).trim()).toBe('true');

    // A refusal before the restore starts is a plain JSON answer, as for a pull.
    const missing = await t.client.post<ApiError>(
      `${B}/restore`,
      { archive_id: 99_999, volume: source, into },
      { accept: 'text/event-stream' },
    );
    expect([missing.status, missing.body.code]).toEqual([404, 'not_found']);
  });
});
