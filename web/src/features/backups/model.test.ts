import { describe, expect, it } from 'vitest';
import type { BackupArchive, BackupJob, BackupRun } from '@berth/contract';
import {
  archivesByTarget,
  destinationBody,
  destinationFields,
  destinationKinds,
  jobsCovering,
  lastBackup,
  progressPercent,
  retentionText,
  targetBody,
  targetFields,
  targetKinds,
  targetText,
} from './model';
import { valuesOf } from './form-schema';

const run = (started_at: string): BackupRun => ({ id: 1, started_at, outcome: 'ok' }) as unknown as BackupRun;
const job = (name: string, environment: string, volumes: string[], last: BackupRun | null = null) =>
  ({
    id: name.length,
    name,
    environment,
    volumes,
    target: { kind: 'volumes', volumes, mode: 'live' },
    last_run: last,
  }) as unknown as BackupJob;

describe('backups model', () => {
  it('reads each destination kind and its form from the contract', () => {
    expect(destinationKinds()).toEqual(expect.arrayContaining(['folder', 'sftp']));
    const sftp = destinationFields('sftp');
    const byKey = Object.fromEntries(sftp.map((f) => [f.key, f]));
    expect(byKey.port).toMatchObject({ input: 'number', required: false, defaultValue: '22' });
    expect(byKey.password).toMatchObject({ input: 'secret', required: false });
    expect(byKey.private_key).toMatchObject({ input: 'multiline', required: false });
    expect(byKey.host).toMatchObject({ input: 'text', required: true });
    expect(sftp.some((f) => f.key === 'kind')).toBe(false);
  });

  it('makes the body: numbers typed, empty optional fields left out, text trimmed', () => {
    const fields = destinationFields('sftp');
    const body = destinationBody('sftp', fields, {
      name: ' off-site ',
      host: 'h',
      port: '2222',
      username: 'u',
      path: '/b',
      host_key: 'ssh-ed25519 AAAA',
      password: ' p w ',
      private_key: '',
    });
    expect(body).toEqual({
      kind: 'sftp',
      name: 'off-site',
      host: 'h',
      port: 2222,
      username: 'u',
      path: '/b',
      host_key: 'ssh-ed25519 AAAA',
      password: ' p w ',
    });
  });

  it('finds the jobs covering a volume in its environment and their last backup', () => {
    const jobs = [
      job('a', 'local', ['v1', 'v2'], run('2026-01-02T00:00:00Z')),
      job('b', 'local', ['v2'], run('2026-01-03T00:00:00Z')),
      job('c', 'other', ['v1'], run('2026-01-09T00:00:00Z')),
    ];
    const project = {
      ...job('p', 'local', []),
      target: { kind: 'project', project: 'shop', mode: 'stop' },
    } as BackupJob;
    jobs.push(project);
    expect(jobsCovering(jobs, 'local', { volumes: ['v1'] }).map((j) => j.name)).toEqual(['a']);
    expect(jobsCovering(jobs, 'local', { volumes: ['v2'], project: 'shop' }).map((j) => j.name)).toEqual([
      'a',
      'b',
      'p',
    ]);
    expect(lastBackup(jobsCovering(jobs, 'local', { volumes: ['v2', 'x'] }))?.started_at).toBe('2026-01-03T00:00:00Z');
    expect(lastBackup([job('d', 'local', ['v'])])).toBeNull();
  });

  it('groups archives by job, newest first', () => {
    const a = (id: number, jobName: string, created_at: string) =>
      ({ id, created_at, manifest: { job: jobName } }) as unknown as BackupArchive;
    const groups = archivesByTarget([a(1, 'b', '2026-01-01'), a(2, 'a', '2026-01-01'), a(3, 'b', '2026-01-02')]);
    expect(groups.map((g) => [g.job, g.archives.map((x) => x.id)])).toEqual([
      ['a', [2]],
      ['b', [3, 1]],
    ]);
  });

  it('reads the target kinds and their fields from the contract, and makes a target from the form', () => {
    expect(targetKinds()).toEqual(expect.arrayContaining(['volumes', 'project', 'berth']));
    const volumes = targetFields('volumes');
    expect(volumes.map((f) => [f.key, f.input])).toEqual([
      ['volumes', 'volumes'],
      ['mode', 'select'],
    ]);
    expect(volumes[1]).toMatchObject({ defaultValue: 'live', options: ['live', 'stop'] });
    expect(targetFields('project')[0]).toMatchObject({ key: 'project', input: 'project', required: true });
    expect(targetBody('volumes', volumes, { volumes: ['a', 'b'] })).toEqual({
      kind: 'volumes',
      volumes: ['a', 'b'],
      mode: 'live',
    });
    const berth = targetFields('berth');
    expect(berth).toEqual([expect.objectContaining({ key: 'include_stats', input: 'checkbox', defaultValue: false })]);
    expect(valuesOf(berth, { kind: 'berth', include_stats: true })).toEqual({ include_stats: true });
    expect(targetText({ kind: 'project', project: 'shop', mode: 'stop' })).toBe('Project shop (stopped for the copy)');
  });

  it('says retention and progress in words and percents', () => {
    expect(retentionText({ keep_last: 7, keep_daily: 0, keep_weekly: 4 })).toBe('last 7, 4 weekly');
    expect(progressPercent({ bytes: 50, total: 200 })).toBe(25);
    expect(progressPercent(null)).toBe(0);
  });
});
