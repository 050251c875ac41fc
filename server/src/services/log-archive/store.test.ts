import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../db/database';
import { LogArchivesRepo } from '../../db/log-archives-repo';
import type { LogLine } from '../../docker/logs';
import { appNameOf, inRange } from './archiver';
import { decodeLines, encodeLines, LogArchiveStore } from './store';

const DAY = 86_400_000;
const line = (text: string, second: number, stream = 1): LogLine => ({
  text,
  stream,
  ts: `2026-11-27T10:00:${String(second).padStart(2, '0')}.5Z`,
  nanos: BigInt(Date.parse(`2026-11-27T10:00:${String(second).padStart(2, '0')}.5Z`)) * 1_000_000n,
});

describe('kept lines', () => {
  it('keep the newest lines that fit, with stream and time, tabs in the text intact', () => {
    const lines = [line('one', 1), line('two\twith tab', 2, 2), line('three', 3)];
    const all = encodeLines(lines, 1 << 20);
    expect(decodeLines(all.text)).toEqual(lines);
    // 'three' and 'two…' take 37 + 44 bytes stored: a cap of 90 drops the oldest.
    const capped = encodeLines(lines, 90);
    expect(capped.kept.map((l) => l.text)).toEqual(['two\twith tab', 'three']);
    expect(capped.bytes).toBe(Buffer.byteLength(capped.text));
  });

  it('are cut by since, until and tail like a live log', () => {
    const lines = [1, 2, 3, 4, 5].map((s) => line(`l${s}`, s));
    const at = (s: number) => lines[s - 1]!.nanos!;
    expect(inRange(lines, { sinceNanos: at(2), untilNanos: at(5), timestamps: false, json: false }).length).toBe(3);
    expect(inRange(lines, { tail: 2, timestamps: false, json: false }).map((l) => l.text)).toEqual(['l4', 'l5']);
  });

  it('belong to the app, not to the temporary name of a replace or of a compose v1 recreate', () => {
    expect(appNameOf('/web-berth-old-0a1b2c3d', false)).toBe('web');
    expect(appNameOf('web-berth-new-0a1b2c3d', false)).toBe('web');
    expect(appNameOf('0123456789ab_proj_web_1', true)).toBe('proj_web_1');
    expect(appNameOf('0123456789ab_name', false)).toBe('0123456789ab_name');
  });
});

describe('LogArchiveStore pruning', () => {
  let dir: string;
  let db: Db;
  let store: LogArchiveStore;
  const log = { warn: () => undefined } as unknown as FastifyBaseLogger;
  const put = (container: string, capturedAt: number, text: string) =>
    store.put(
      {
        environment: 'local',
        container_id: container,
        name: 'app',
        project: null,
        service: null,
        image: 'img',
        started_at: null,
        finished_at: null,
        exit_code: null,
        first_line_at: null,
        last_line_at: null,
        reason: 'removed',
        captured_at: capturedAt,
      },
      { text, bytes: text.length, lines: 1 },
    );
  const files = () => fs.readdirSync(store.dir).sort();

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'berth-logarc-'));
    db = openDatabase(dir);
  });
  afterEach(() => {
    store.close();
    db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('drops kept logs past their age, file and row', async () => {
    store = new LogArchiveStore(
      new LogArchivesRepo(db),
      dir,
      { lines: 10, bytes: 1e6, ageMs: 7 * DAY, totalBytes: 1e9 },
      log,
    );
    const now = Date.now();
    const old = await put('a', now - 8 * DAY, 'old\n');
    const young = await put('b', now - 6 * DAY, 'young\n');
    // put prunes: the 8-day-old one is gone already.
    expect(files()).toEqual([`${young}.zst`]);
    expect(store.repo.get('local', old)).toBeUndefined();
    expect(await store.prune(now + 2 * DAY)).toBe(1);
    expect(files()).toEqual([]);
  });

  it('drops the oldest kept logs until the rest fit the total size', async () => {
    const repo = new LogArchivesRepo(db);
    store = new LogArchiveStore(repo, dir, { lines: 10, bytes: 1e6, ageMs: 7 * DAY, totalBytes: 1e9 }, log);
    const now = Date.now();
    const ids = [];
    for (let i = 0; i < 4; i++) ids.push(await put(`c${i}`, now - (4 - i) * 1000, `${'x'.repeat(100)}${i}\n`));
    const each = repo.sizes()[0]!.stored_bytes;
    store = new LogArchiveStore(repo, dir, { lines: 10, bytes: 1e6, ageMs: 7 * DAY, totalBytes: 2 * each + 1 }, log);
    expect(await store.prune(now)).toBe(2);
    expect(files()).toEqual(ids.slice(2).map((id) => `${id}.zst`));
    expect(repo.sizes().map((r) => r.id)).toEqual(ids.slice(2));
  });

  it('keeps one row per container: keeping it again replaces its lines under the same number', async () => {
    store = new LogArchiveStore(
      new LogArchivesRepo(db),
      dir,
      { lines: 10, bytes: 1e6, ageMs: DAY, totalBytes: 1e9 },
      log,
    );
    const first = await put('same', Date.now(), '1\tt\tfirst\n');
    const again = await put('same', Date.now(), '1\tt\tsecond\n');
    expect(again).toBe(first);
    expect((await store.lines(store.repo.get('local', first)!)).map((l) => l.text)).toEqual(['second']);
  });
});
