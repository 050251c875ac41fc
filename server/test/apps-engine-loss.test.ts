import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StatsSample, StreamStatus } from '@berth/contract';
import { createTestApp, type TestApp } from './helpers/app';
import { testEngine } from './helpers/engine';
import { cleanup, uniqueName } from './images-fixtures';
import { cookieHeader, EngineLink, listen, runTicker, SseReader } from './apps-fixtures';

let t: TestApp;
let link: EngineLink;
let base: string;
const made: string[] = [];
const readers: SseReader[] = [];

beforeAll(async () => {
  const engine = new URL(testEngine().dockerHost);
  link = new EngineLink(path.join(os.tmpdir(), `berth-t-link-${process.pid}.sock`), engine.pathname);
  await link.up();
  t = await createTestApp({ DOCKER_HOST: `unix://${link.socketPath}` });
  base = await listen(t.app);
});

afterAll(async () => {
  for (const r of readers) r.close();
  cleanup('container', ...made);
  await t?.close();
  await link?.down();
});

describe('when the engine goes away mid-stream', () => {
  it('the log stream says so, and resumes without replaying lines when the engine is back', async () => {
    const name = uniqueName('engine-loss');
    made.push(name);
    runTicker(name);
    const logs = await SseReader.open(base, `/api/apps/${name}/logs`, cookieHeader(t.client));
    readers.push(logs);
    const dash = await SseReader.open(base, '/api/apps/stats', cookieHeader(t.client));
    readers.push(dash);
    await logs.waitFor((r) => r.updates().length >= 3, 'first lines');
    await dash.waitFor((r) => r.of<StatsSample>('update').some((s) => s.name === name), 'a dashboard sample');

    await link.down();
    await logs.waitFor(
      (r) => r.of<StreamStatus>('status').some((s) => s.status === 'engine_unreachable'),
      'the engine_unreachable status',
    );
    expect((await t.client.get('/api/apps/')).status).toBe(503);
    const cut = logs.updates().length;
    await new Promise((r) => setTimeout(r, 1000));

    await link.up();
    await logs.waitFor((r) => r.updates().length >= cut + 5, 'lines after the engine returned', 30_000);
    const lines = logs.updates();
    expect(new Set(lines).size).toBe(lines.length);
    // The container kept printing while Berth could not see it: those lines arrive too, in order.
    const numbers = lines.map((l) => Number(/line (\d+)$/.exec(l)![1]));
    expect(numbers).toEqual(numbers.map((_, i) => i + 1));

    const before = dash.of<StatsSample>('update').filter((s) => s.name === name).length;
    await dash.waitFor(
      (r) => r.of<StatsSample>('update').filter((s) => s.name === name).length > before,
      'dashboard samples after the engine returned',
      40_000,
    );
    expect(dash.isEnded).toBe(false);
  });
});
