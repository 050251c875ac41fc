import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LogEntry, LogSearchResult } from '@berth/contract';
import { createTestApp, REAUTH, type TestApp } from './helpers/app';
import { dockerCli, testEngine, tryDockerCli } from './helpers/engine';
import { cleanup, uniqueName } from './images-fixtures';
import { cookieHeader, listen, SseReader, until } from './apps-fixtures';

let t: TestApp;
let base: string;
let cookie: string;
const made: string[] = [];
const readers: SseReader[] = [];
const BIG = 50_000;
/** 32 a's then a '!': `(a+)+$` backtracks through 2^32 ways of splitting them. */
const EVIL = `${'a'.repeat(32)}!`;

/** A labelled busybox container running `script`. */
function run(name: string, script: string, labels: Record<string, string> = {}): string {
  made.push(name);
  const flags = Object.entries(labels).flatMap(([k, v]) => ['--label', `${k}=${v}`]);
  return dockerCli([
    'run',
    '-d',
    '--name',
    name,
    '--label',
    'berth.test=1',
    ...flags,
    testEngine().image,
    'sh',
    '-c',
    script,
  ]).trim();
}

const logTail = (name: string) => tryDockerCli(['logs', '--tail', '1', name]).stdout.trim();

async function open(path: string): Promise<SseReader> {
  const r = await SseReader.open(base, path, cookie);
  readers.push(r);
  return r;
}

/** An engine time that sorts as text (the engine drops trailing zeros of the fraction). */
const sortable = (ts: string) =>
  ts.replace(/(?:\.(\d+))?Z$/, (_, f: string | undefined) => `.${(f ?? '').padEnd(9, '0')}Z`);
const inOrder = (times: string[]) => {
  const keys = times.map(sortable);
  return keys.every((k, i) => i === 0 || keys[i - 1]! <= k);
};

const entries = (r: SseReader) => r.of<LogEntry[]>('lines').flat();
const get = (path: string) => fetch(base + path, { headers: { cookie } });

// Three bursts a second or more apart (so since/until can cut between them by the engine's own
// times), a line on stderr, a last line, then quiet.
const phases = uniqueName('logs-phases');
// Many numbered lines, and a line that makes a backtracking regex explode.
const big = uniqueName('logs-big');

beforeAll(async () => {
  t = await createTestApp();
  base = await listen(t.app);
  cookie = cookieHeader(t.client);
  // The engine reads stdout and stderr separately: lines of the two written at the same moment may
  // be logged in either order, hence the pause around the stderr line.
  run(
    phases,
    'for p in a b c; do for i in 1 2 3; do echo "$p$i"; done; sleep 1.2; done; echo oops >&2; sleep 0.5; echo done; sleep 3600',
  );
  run(big, `echo ${EVIL}; seq 1 ${BIG} | sed 's/^/big-/'; sleep 3600`);
  let seen: string[] = [];
  await until(
    () => {
      seen = [logTail(phases), logTail(big)];
      return seen[0] === 'done' && seen[1] === `big-${BIG}`;
    },
    'the test containers to print everything',
    45_000,
  ).catch((err: Error) => {
    throw new Error(`${err.message}; last lines: ${JSON.stringify(seen)}`);
  });
}, 60_000);

afterAll(async () => {
  for (const r of readers) r.close();
  cleanup('container', ...made);
  await t?.close();
});

describe('app log stream options', () => {
  let all: LogEntry[];
  const ts = (line: string) => all.find((e) => e.line === line)!.ts!;

  beforeAll(async () => {
    const r = await open(`/api/apps/${phases}/logs?tail=all&timestamps=1&format=json`);
    await r.waitFor((x) => entries(x).some((e) => e.line === 'done'), 'every line');
    all = entries(r);
    r.close();
  });

  it('sends every line with its engine time, telling stderr from stdout', () => {
    expect(all.map((e) => e.line)).toEqual(['a1', 'a2', 'a3', 'b1', 'b2', 'b3', 'c1', 'c2', 'c3', 'oops', 'done']);
    expect(all.every((e) => /^\d{4}-\d\d-\d\dT[\d:.]+Z$/.test(e.ts ?? ''))).toBe(true);
    expect(all.find((e) => e.line === 'oops')!.stream).toBe('stderr');
    expect(all.find((e) => e.line === 'c1')!.stream).toBe('stdout');
  });

  it('cuts by since and until (a past until ends with an end event) and by tail', async () => {
    const r = await open(`/api/apps/${phases}/logs?since=${ts('b1')}&until=${ts('c1')}`);
    await until(() => r.isEnded, 'the stream to end');
    expect(r.updates()).toEqual(['b1', 'b2', 'b3']);
    expect(r.events.at(-1)!.event).toBe('end');

    // A relative since (1h ago) and an until just after the last line.
    const justAfter = new Date(Date.parse(ts('done')) + 1).toISOString();
    const tail = await open(`/api/apps/${phases}/logs?tail=2&since=1h&until=${justAfter}&format=json`);
    await until(() => tail.isEnded, 'the tail stream to end');
    expect(entries(tail).map((e) => e.line)).toEqual(['oops', 'done']);
    expect(entries(tail)[0]!.ts).toBeUndefined();

    const stamped = await open(`/api/apps/${phases}/logs?tail=1&timestamps=1`);
    await stamped.waitFor((x) => x.updates().length === 1, 'one line');
    expect(stamped.updates()[0]).toBe(`${ts('done')} done`);
  });

  it('rejects a time it cannot read', async () => {
    const res = await get(`/api/apps/${phases}/logs?since=yesterday`);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { detail: string }).detail).toMatch(/since is a time in RFC 3339/);
  });
});

describe('app log download and search', () => {
  it('downloads a large log whole and in order, as a text attachment', async () => {
    const res = await get(`/api/apps/${big}/logs/download`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="berth-t-logs-big-[\w-]+\.log"$/);
    const lines = (await res.text()).split('\n');
    expect(lines.at(-1)).toBe('');
    expect(lines.slice(0, -1)).toEqual([EVIL, ...Array.from({ length: BIG }, (_, i) => `big-${i + 1}`)]);
  });

  it('finds lines from before the tail window, plain or regex, with their times', async () => {
    const plain = (await (await get(`/api/apps/${big}/logs/search?q=BIG-7`)).json()) as LogSearchResult;
    expect(plain.scanned).toBe(BIG + 1);
    // big-7, big-7x, big-7xx and big-7xxx: 1111 lines, more than the default limit; the newest 500 come.
    expect(plain.matches.map((m) => m.line)).toEqual(Array.from({ length: 500 }, (_, i) => `big-${7500 + i}`));
    expect(plain.detail).toBe('1111 lines matched; the newest 500 are shown.');
    expect(plain.truncated).toBe(true);
    const regex = (await (
      await get(`/api/apps/${big}/logs/search?q=${encodeURIComponent('^big-7$')}&regex=1&case=1`)
    ).json()) as LogSearchResult;
    expect(regex.matches.map((m) => m.line)).toEqual(['big-7']);
    expect(regex.matches[0]!.ts).toMatch(/^\d{4}-/);
    expect(regex.truncated).toBe(false);
  });

  it('answers 400 naming the problem for a bad regex, and for one that backtracks without end', async () => {
    const bad = await get(`/api/apps/${big}/logs/search?q=${encodeURIComponent('big-(')}&regex=1`);
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { detail: string }).detail).toMatch(
      /^The regular expression is not valid: .*Unterminated group/,
    );
    const evil = await get(`/api/apps/${big}/logs/search?q=${encodeURIComponent('^(a+)+$')}&regex=1`);
    expect(evil.status).toBe(400);
    expect(((await evil.json()) as { detail: string }).detail).toMatch(/backtracks catastrophically/);
    // The server was never stalled: it answers at once.
    expect((await get('/api/health')).status).toBe(200);
  });
});

describe('log searches under load (hardening II #14)', () => {
  it('caps a user at 2 searches at once (429) and keeps answering health while catastrophic searches run', async () => {
    const viewer = { email: 'logs-viewer@berth.test', password: 'logs-viewer-password' };
    expect((await t.client.post('/api/users', { ...viewer, role: 'viewer', ...REAUTH })).status).toBe(200);
    const other = t.anon();
    await other.login(viewer.email, viewer.password);
    const evil = `/api/apps/${big}/logs/search?q=${encodeURIComponent('^(a+)+$')}&regex=1`;
    const users = [cookie, cookieHeader(other)];
    let settled = 0;
    const searches = users.flatMap((c) =>
      [1, 2].map(() =>
        fetch(base + evil, { headers: { cookie: c } }).then(async (r) => {
          settled++;
          return { status: r.status, body: (await r.json()) as { detail: string } };
        }),
      ),
    );
    await until(() => t.services.regexPool.searches() === 4, 'four searches to run');
    const third = await get(evil);
    expect(third.status).toBe(429);
    expect(((await third.json()) as { detail: string }).detail).toMatch(/2 log searches running \(the limit is 2\)/);
    // The event loop is free while the pool's threads backtrack: health answers with the searches still in flight.
    const health = await get('/api/health');
    expect(health.status).toBe(200);
    expect(settled).toBeLessThan(4);
    for (const res of await Promise.all(searches)) {
      expect(res.status).toBe(400);
      expect(res.body.detail).toMatch(/backtracks catastrophically/);
    }
    // Places are given back: the same user searches again.
    expect((await get(`/api/apps/${big}/logs/search?q=big-1`)).status).toBe(200);
  }, 60_000);
});

describe('project logs', () => {
  const project = uniqueName('logs-proj');
  const labels = (service: string) => ({
    'com.docker.compose.project': project,
    'com.docker.compose.service': service,
  });
  const ticker = (tag: string) => `i=0; while true; do i=$((i+1)); echo "${tag}-$i"; sleep 0.1; done`;

  it('merges the services in time order, tagged, and picks up a service started later; downloads the merge', async () => {
    run(`${project}-one`, ticker('one'), labels('one'));
    run(`${project}-two`, ticker('two'), labels('two'));
    const count = (service: string) => Number(logTail(`${project}-${service}`).split('-')[1] ?? 0);
    await until(() => count('one') >= 15 && count('two') >= 15, 'both services to print 15 lines');
    const r = await open(`/api/compose/${project}/logs?tail=all`);
    // The lines printed before the stream opened come first, merged exactly by engine time.
    await r.waitFor((x) => x.of<LogEntry[]>('lines').length >= 1, 'the backlog');
    const backlog = r.of<LogEntry[]>('lines')[0]!;
    expect(inOrder(backlog.map((e) => e.ts!))).toBe(true);
    const services = backlog.map((e) => e.service);
    // Interleaved: the services alternate many times, not one block after the other.
    expect(services.filter((s, i) => i > 0 && s !== services[i - 1]).length).toBeGreaterThan(10);
    // Then live lines (reordered within a short window), and a service started later joins.
    run(`${project}-late`, ticker('late'), labels('late'));
    await r.waitFor((x) => entries(x).some((e) => e.service === 'late'), 'the later service');
    expect(entries(r).find((e) => e.service === 'late')).toMatchObject({
      line: 'late-1',
      container: `${project}-late`,
      stream: 'stdout',
    });
    r.close();

    const res = await get(`/api/compose/${project}/logs/download?timestamps=1`);
    expect(res.status).toBe(200);
    const lines = (await res.text()).trimEnd().split('\n');
    expect(inOrder(lines.map((l) => l.split(' ')[0]!))).toBe(true);
    expect(lines.some((l) => / one \| one-1$/.test(l)) && lines.some((l) => / two \| two-1$/.test(l))).toBe(true);
  });

  it('answers 404 for a project with neither containers nor a folder', async () => {
    expect((await get(`/api/compose/${uniqueName('logs-none')}/logs`)).status).toBe(404);
  });
});
