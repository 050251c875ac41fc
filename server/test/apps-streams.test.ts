import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  applyStatsTick,
  StreamEvent,
  type StatsRemoved,
  type StatsSample,
  type StatsTick,
  type StreamStatus,
  type TickNumbers,
} from '@berth/contract';
import { createTestApp, type TestApp } from './helpers/app';
import { dockerCli, testEngine } from './helpers/engine';
import { cleanup, uniqueName } from './images-fixtures';
import { cookieHeader, listen, runTicker, SseReader, until } from './apps-fixtures';

let t: TestApp;
let base: string;
let cookie: string;
const made: string[] = [];
const readers: SseReader[] = [];

function ticker(feature: string): string {
  const name = uniqueName(feature);
  made.push(name);
  runTicker(name);
  return name;
}

async function open(path: string): Promise<SseReader> {
  const r = await SseReader.open(base, path, cookie);
  readers.push(r);
  return r;
}

const hub = () => t.services.environments.local.hub;

beforeAll(async () => {
  // Without the history recorder, which keeps a stream open for every running app: these tests count streams.
  t = await createTestApp({ STATS_HISTORY: 'false' });
  base = await listen(t.app);
  cookie = cookieHeader(t.client);
});

afterAll(async () => {
  for (const r of readers) r.close();
  cleanup('container', ...made);
  await t?.close();
});

describe('GET /api/apps/{name}/logs', () => {
  it('sends the existing lines first, then follows new ones, one line per event', async () => {
    const name = ticker('logs');
    await new Promise((r) => setTimeout(r, 1200));
    const logs = await open(`/api/apps/${name}/logs`);
    await logs.waitFor((r) => r.updates().length >= 10, '10 log lines');
    const lines = logs.updates();
    expect(lines[0]).toBe('run 1 line 1');
    expect(lines.slice(0, 10)).toEqual(Array.from({ length: 10 }, (_, i) => `run 1 line ${i + 1}`));
    logs.close();
  });

  it('says when the app stops, waits without replaying, and continues after a start', async () => {
    const name = ticker('logs-restart');
    const logs = await open(`/api/apps/${name}/logs`);
    await logs.waitFor((r) => r.updates().length >= 3, 'first lines');
    dockerCli(['stop', '-t', '1', name]);
    await logs.waitFor((r) => r.of<StreamStatus>('status').some((s) => s.status === 'stopped'), 'the stopped status');
    const beforeStart = logs.updates().length;
    // While stopped nothing arrives and the server does not spin.
    await new Promise((r) => setTimeout(r, 1500));
    expect(logs.updates().length).toBe(beforeStart);
    dockerCli(['start', name]);
    await logs.waitFor((r) => r.updates().includes('run 2 line 3'), 'lines of the second run');
    const all = logs.updates();
    expect(new Set(all).size).toBe(all.length);
    expect(all.indexOf('run 2 line 1')).toBe(beforeStart);
    expect(all.slice(0, beforeStart).every((l) => l.startsWith('run 1 '))).toBe(true);
    expect(logs.of<StreamStatus>('status').map((s) => s.status)).toEqual(['running', 'stopped', 'running']);
    logs.close();
  });

  it('tells the viewer when the app is removed and ends the stream', async () => {
    const name = ticker('logs-removed');
    const logs = await open(`/api/apps/${name}/logs`);
    await logs.waitFor((r) => r.updates().length >= 1, 'a line');
    dockerCli(['rm', '-f', name]);
    await logs.waitFor((r) => r.of<StreamStatus>('status').some((s) => s.status === 'removed'), 'the removed status');
    await until(() => logs.isEnded, 'the stream to end');
  });

  it('answers 404 (not an empty stream) for an unknown app', async () => {
    const res = await fetch(`${base}/api/apps/berth-t-logs-nonexistent/logs`, { headers: { cookie } });
    expect(res.status).toBe(404);
    expect(((await res.json()) as { code: string }).code).toBe('not_found');
  });
});

describe('stats streams', () => {
  it('delivers samples with sane numbers', async () => {
    const name = ticker('stats');
    const stats = await open(`/api/apps/${name}/stats`);
    await stats.waitFor((r) => r.of<StatsSample>('update').length >= 2, 'two samples');
    for (const s of stats.of<StatsSample>('update')) {
      expect(s.name).toBe(name);
      expect(Number.isNaN(Date.parse(s.time))).toBe(false);
      expect(s.cpu_percent).toBeGreaterThanOrEqual(0);
      expect(s.cpu_percent).toBeLessThanOrEqual(100 * 64);
      expect(s.mem_current).toBeGreaterThan(0);
      expect(s.mem_total).toBeGreaterThan(s.mem_current);
      expect(s.mem_percent).toBeGreaterThanOrEqual(0);
      expect(s.mem_percent).toBeLessThan(100);
    }
    stats.close();
  });

  it('never sends an unmeasured 0 % CPU: the first sample of a busy app already shows its CPU', async () => {
    const name = uniqueName('stats-busy');
    made.push(name);
    // A busy loop held to a fifth of a core: every one-second window measures well above 0 %.
    dockerCli([
      'run',
      '-d',
      '--name',
      name,
      '--label',
      'berth.test=1',
      '--cpus',
      '0.2',
      testEngine().image,
      'sh',
      '-c',
      'while :; do :; done',
    ]);
    const stats = await open(`/api/apps/${name}/stats`);
    await stats.waitFor((r) => r.of<StatsSample>('update').length >= 1, 'a sample');
    expect(stats.of<StatsSample>('update')[0]!.cpu_percent).toBeGreaterThan(0);
    stats.close();
    dockerCli(['rm', '-f', name]);
  });

  it('shares one engine stream between viewers of the same app and closes it after the last leaves', async () => {
    const name = ticker('stats-shared');
    // Viewers of earlier tests are gone once the server has seen their connections close.
    await until(() => hub().openStreams === 0, 'earlier streams to close');
    const a = await open(`/api/apps/${name}/stats`);
    const b = await open(`/api/apps/${name}/stats`);
    await a.waitFor((r) => r.of('update').length >= 2, 'samples for viewer a');
    await b.waitFor((r) => r.of('update').length >= 2, 'samples for viewer b');
    expect(hub().openStreams).toBe(1);
    a.close();
    await new Promise((r) => setTimeout(r, 500));
    expect(hub().openStreams).toBe(1);
    expect(b.of('update').length).toBeGreaterThanOrEqual(2);
    b.close();
    await until(() => hub().openStreams === 0, 'the engine stream to close');
  });

  it('closes the engine stream when the app stops and reopens it when it starts', async () => {
    const name = ticker('stats-stop');
    await until(() => hub().openStreams === 0, 'earlier streams to close');
    const before = 0;
    const stats = await open(`/api/apps/${name}/stats`);
    await stats.waitFor((r) => r.of('update').length >= 1, 'a sample');
    dockerCli(['stop', '-t', '1', name]);
    await stats.waitFor((r) => r.of<StreamStatus>('status').some((s) => s.status === 'stopped'), 'the stopped status');
    await until(() => hub().openStreams === before, 'the engine stream to close');
    const seen = stats.of('update').length;
    dockerCli(['start', name]);
    await stats.waitFor((r) => r.of('update').length > seen, 'samples after the start');
    expect(hub().openStreams - before).toBe(1);
    stats.close();
  });

  it('dashboard: apps that start appear and apps that stop disappear without a reconnect, as samples and as ticks', async () => {
    const dash = await open('/api/apps/stats');
    const tick = await open('/api/apps/stats?format=tick');
    // The tick format: the numbers a client holds after applying every frame so far.
    const state = new Map<string, TickNumbers>();
    let applied = 0;
    const follow = (r: SseReader) => {
      const frames = r.of<StatsTick>(StreamEvent.tick);
      for (const frame of frames.slice(applied)) {
        const { changed } = applyStatsTick(state, frame);
        // A delta carries only apps whose numbers changed.
        if (!frame.full) expect(changed.sort()).toEqual(Object.keys(frame.apps).sort());
      }
      if (applied === 0 && frames.length) expect(frames[0]!.full).toBe(true);
      applied = frames.length;
      return state;
    };
    const name = ticker('stats-dash');
    await dash.waitFor((r) => r.of<StatsSample>('update').some((s) => s.name === name), 'a sample of the new app');
    await tick.waitFor((r) => follow(r).has(name), 'the new app in a tick');
    // Every running app is in the ticks (other suites may start and stop containers meanwhile: eventually).
    const running = () => new Set(dockerCli(['ps', '--format', '{{.Names}}']).split('\n').filter(Boolean));
    await tick.waitFor((r) => [...running()].every((n) => follow(r).has(n)), 'every running app in the ticks');
    expect(tick.encoding).toBe('gzip');
    dockerCli(['stop', '-t', '1', name]);
    await dash.waitFor((r) => r.of<StatsRemoved>('remove').some((s) => s.name === name), 'the remove event');
    await tick.waitFor((r) => !follow(r).has(name), 'the app gone from the ticks');
    expect(tick.of<StatsTick>(StreamEvent.tick).some((f) => f.gone?.includes(name))).toBe(true);
    const count = dash.of<StatsSample>('update').filter((s) => s.name === name).length;
    await new Promise((r) => setTimeout(r, 1500));
    expect(dash.of<StatsSample>('update').filter((s) => s.name === name).length).toBe(count);
    expect(follow(tick).has(name)).toBe(false);
    // The samples stream has no tick events and the tick stream no samples.
    expect(dash.of(StreamEvent.tick)).toEqual([]);
    expect(tick.of(StreamEvent.update)).toEqual([]);
    expect((await t.client.get('/api/apps/stats?format=xml')).body).toMatchObject({ code: 'validation_error' });
    dash.close();
    tick.close();
  });

  it('dashboard: ten viewers share one engine stream per running app', async () => {
    const names = [ticker('stats-many'), ticker('stats-many')];
    const dashes = await Promise.all(Array.from({ length: 10 }, () => open('/api/apps/stats')));
    for (const d of dashes)
      await d.waitFor(
        (r) => names.every((n) => r.of<StatsSample>('update').some((s) => s.name === n)),
        'samples of both apps',
      );
    const running = dockerCli(['ps', '-q']).trim().split('\n').filter(Boolean).length;
    // Other suites may start or stop containers meanwhile; what matters is one stream per app, not per viewer.
    expect(hub().openStreams).toBeLessThanOrEqual(running + 2);
    expect(hub().openStreams).toBeGreaterThanOrEqual(names.length);
    for (const d of dashes) d.close();
    await until(() => hub().openStreams === 0, 'every engine stream to close');
  });
});
