import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiError, DeployBody, LogArchiveList, LogSearchResult } from '@berth/contract';
import { createTestApp, type TestApp } from './helpers/app';
import { dockerCli, IDLE_COMMAND, testEngine, tryDockerCli } from './helpers/engine';
import { cleanup, uniqueName } from './images-fixtures';
import { cookieHeader, listen, SseReader, until } from './apps-fixtures';

const LINES = 5000;
let t: TestApp;
let base: string;
const made: string[] = [];

const archives = async (name: string) => {
  const res = await t.client.get<LogArchiveList & ApiError>(`/api/apps/${name}/logs/archives`);
  expect(res.status, res.text).toBe(200);
  return res.body;
};
const search = (name: string, id: number, q: string) =>
  t.client.get<LogSearchResult & ApiError>(`/api/apps/${name}/logs/archives/${id}/search?${q}`);
const lastLine = (name: string) => tryDockerCli(['logs', '--tail', '1', name]).stdout.trim();
/** Whether this process (the app under test) has the file open. */
const holds = (file: string) =>
  fs.readdirSync('/proc/self/fd').some((fd) => {
    try {
      return fs.readlinkSync(`/proc/self/fd/${fd}`).startsWith(file);
    } catch {
      return false;
    }
  });

beforeAll(async () => {
  t = await createTestApp();
  base = await listen(t.app);
});
afterAll(async () => {
  cleanup('container', ...made);
  await t?.close();
});

describe('logs that outlive their container', () => {
  const name = uniqueName('logarc');
  let firstId: string;
  let archiveId: number;

  const app = (extra: Partial<DeployBody> = {}): DeployBody => ({
    name,
    image: testEngine().image,
    restart_policy: 'none',
    command: ['sh', '-c', `trap 'exit 0' TERM; seq 1 ${LINES} | sed 's/^/line-/'; sleep 3600 & wait`],
    labels: [{ label: 'berth.test', value: '1' }],
    ...extra,
  });

  beforeAll(async () => {
    made.push(name);
    const res = await t.client.post<{ id: string } & ApiError>('/api/apps/deploy', app());
    expect(res.status, res.text).toBe(200);
    firstId = res.body.id;
    await until(() => lastLine(name) === `line-${LINES}`, 'the app to log every line', 30_000);
  });

  it('keeps the last 2,000 lines of the container an edit replaced, searchable and downloadable', async () => {
    const edit = await t.client.post<ApiError>('/api/apps/deploy', {
      ...app({ env: [{ name: 'EDITED', default: '1' }] }),
      edit: true,
      id: name,
    });
    expect(edit.status, edit.text).toBe(200);

    const { archives: list, retentionDays } = await archives(name);
    expect(retentionDays).toBe(7);
    const kept = list.find((a) => a.containerId === firstId)!;
    expect(kept).toMatchObject({ name, reason: 'replaced', lines: 2000, exists: false, project: null });
    expect(kept.storedBytes).toBeLessThan(kept.bytes);
    expect(Date.parse(kept.firstLineAt!)).toBeLessThanOrEqual(Date.parse(kept.lastLineAt!));
    archiveId = kept.id;

    // The oldest line kept is line 3001; line 3000 went with the container.
    const hit = await search(name, kept.id, 'q=line-3001');
    expect(hit.status, hit.text).toBe(200);
    expect(hit.body.matches.map((m) => m.line)).toEqual(['line-3001']);
    expect(hit.body.matches[0]!.ts).toMatch(/^\d{4}-/);
    expect(hit.body.scanned).toBe(2000);
    const miss = await search(name, kept.id, 'q=%5Eline-3000%24&regex=1');
    expect(miss.body.matches).toEqual([]);

    const file = await t.client.get(`/api/apps/${name}/logs/archives/${kept.id}/download`);
    expect(file.status).toBe(200);
    expect(file.headers['content-disposition']).toMatch(/^attachment; filename=".*\.log"$/);
    const rows = file.text.trimEnd().split('\n');
    expect([rows.length, rows[0], rows.at(-1)]).toEqual([2000, 'line-3001', `line-${LINES}`]);
  });

  it('sends a kept log as the live stream does, tail and all, then ends', async () => {
    const r = await SseReader.open(base, `/api/apps/${name}/logs/archives/${archiveId}?tail=3`, cookieHeader(t.client));
    try {
      await until(() => r.isEnded, 'the kept log to end');
      expect(r.updates()).toEqual(['line-4998', 'line-4999', 'line-5000']);
      expect(r.events.at(-1)!.event).toBe('end');
    } finally {
      r.close();
    }
  });

  it('keeps them after the app is removed; a number of another app is a 404', async () => {
    const second = dockerCli(['inspect', '--format', '{{.Id}}', name]).trim();
    await until(() => lastLine(name) === `line-${LINES}`, 'the new container to log', 30_000);
    const removed = await t.client.post(`/api/apps/actions/${name}/remove`);
    expect(removed.status, removed.text).toBe(200);
    expect(tryDockerCli(['inspect', name]).status).not.toBe(0);

    const { archives: list } = await archives(name);
    expect(list.map((a) => a.containerId)).toEqual([second, firstId]);
    expect(list[0]).toMatchObject({ reason: 'removed', lines: 2000, exists: false });
    const hit = await search(name, list[0]!.id, 'q=line-5000');
    expect(hit.body.matches.map((m) => m.line)).toEqual(['line-5000']);

    const other = await t.client.get<ApiError>(`/api/apps/${name}-other/logs/archives/${archiveId}/search?q=x`);
    expect([other.status, other.body.code]).toEqual([404, 'not_found']);
    const bad = await search(name, archiveId, 'q=(&regex=1');
    expect([bad.status, bad.body.code]).toEqual([400, 'validation_error']);
  });

  it("keeps a container's lines when it dies, so a removal outside Berth loses nothing", async () => {
    const cli = uniqueName('logarc-cli');
    made.push(cli);
    const id = dockerCli([
      'run',
      '-d',
      '--name',
      cli,
      '--label',
      'berth.test=1',
      testEngine().image,
      'sh',
      '-c',
      'echo bye; exit 3',
    ]).trim();
    let kept: LogArchiveList['archives'] = [];
    await until(async () => (kept = (await archives(cli)).archives).length > 0, 'the died container to be kept');
    dockerCli(['rm', cli]);
    expect(kept[0]).toMatchObject({ containerId: id, reason: 'died', exitCode: 3, lines: 1 });
    const hit = await search(cli, kept[0]!.id, 'q=bye');
    expect(hit.body.matches.map((m) => m.line)).toEqual(['bye']);
  });

  it('keeps the last 2,000 lines of a running container removed with `docker rm -f`, from its log file held open', async () => {
    const cli = uniqueName('logarc-rmf');
    made.push(cli);
    const idle = IDLE_COMMAND.at(-1)!;
    const id = dockerCli([
      'run',
      '-d',
      '--name',
      cli,
      '--label',
      'berth.test=1',
      testEngine().image,
      'sh',
      '-c',
      `seq 1 3000 | sed 's/^/line-/'; ${idle}`,
    ]).trim();
    const file = dockerCli(['inspect', '--format', '{{.LogPath}}', id]).trim();
    await until(() => lastLine(cli) === 'line-3000' && holds(file), 'the log to be written and held', 60_000);
    // The engine deletes the container and its log before Berth hears of it (kill, die, destroy).
    dockerCli(['rm', '-f', cli]);

    let kept: LogArchiveList['archives'] = [];
    await until(
      async () => (kept = (await archives(cli)).archives).some((a) => a.removedAt),
      'the log to be kept',
      60_000,
    );
    expect(kept).toHaveLength(1);
    expect(kept[0]).toMatchObject({ containerId: id, reason: 'died', exitCode: 137, lines: 2000, exists: false });
    // The oldest line kept is line 1001 (no line-1001x exists: 3,000 lines).
    const first = await search(cli, kept[0]!.id, 'q=line-1001');
    expect(first.status, first.text).toBe(200);
    expect([first.body.matches.map((m) => m.line), first.body.scanned]).toEqual([['line-1001'], 2000]);
    expect((await search(cli, kept[0]!.id, 'q=line-1000')).body.matches).toEqual([]);
    expect((await search(cli, kept[0]!.id, 'q=line-3000')).body.matches[0]!.ts).toMatch(/^\d{4}-.*\.\d{9}Z$/);
    // Kept, the unlinked file is let go.
    expect(holds(file)).toBe(false);
  }, 240_000);
});
