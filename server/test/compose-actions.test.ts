import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ActionResult } from '@berth/contract';
import { createTestApp, type TestApp } from './helpers/app';
import { testEngine } from './helpers/engine';
import { hangingYaml, trackedProjects, twoServiceYaml } from './helpers/compose-projects';
import { processesMentioning } from './helpers/leaks';

const TIMEOUT_SECONDS = 5;
/** Default timeout, for actions that must finish even on a busy machine. */
let t: TestApp;
/** A short timeout, for the hanging command. */
let short: TestApp;
const projects = trackedProjects();
const newName = projects.name;

beforeAll(async () => {
  testEngine();
  t = await createTestApp();
  short = await createTestApp({ COMPOSE_TIMEOUT_SECONDS: String(TIMEOUT_SECONDS) });
});
afterEach(() => projects.cleanup());
afterAll(async () => {
  await t?.close();
  await short?.close();
});

describe('compose action limits', () => {
  it('kills a compose command that hangs at its timeout, says so, and frees the project', async () => {
    const name = newName('hang');
    expect((await short.client.post('/api/compose/', { name, content: hangingYaml() })).status).toBe(200);
    const started = Date.now();
    const res = await short.client.post<{ detail: string; code: string }>(`/api/compose/${name}/actions/up`);
    const took = Date.now() - started;
    expect(res.status, res.text).toBe(504);
    expect(res.body.code).toBe('compose_failed');
    expect(res.body.detail).toMatch(new RegExp(`up -d did not finish within ${TIMEOUT_SECONDS} s`));
    expect(took).toBeGreaterThanOrEqual(TIMEOUT_SECONDS * 1000);
    expect(took).toBeLessThan(TIMEOUT_SECONDS * 1000 + 10_000);
    expect(processesMentioning(name)).toEqual([]);
    // the project is free again: the next operation on it is not a 409
    const save = await short.client.post(`/api/compose/${name}/edit`, {
      name,
      content: hangingYaml().replace('services:', '# after the timeout\nservices:'),
    });
    expect(save.status, save.text).toBe(200);
  });

  it('answers exactly one of two concurrent actions on a project with 409 naming the running action', async () => {
    const name = newName('busy');
    expect((await t.client.post('/api/compose/', { name, content: twoServiceYaml() })).status).toBe(200);
    const [a, b] = await Promise.all([
      t.client.post(`/api/compose/${name}/actions/up`),
      t.client.post(`/api/compose/${name}/actions/pull`),
    ]);
    const statuses = [a.status, b.status].sort();
    expect(statuses).toEqual([200, 409]);
    const conflict = (a.status === 409 ? a : b).body as { detail: string };
    expect(conflict.detail).toMatch(/busy: docker-compose (up|pull) is running/);
    // another project is not blocked
    const other = newName('free');
    expect((await t.client.post('/api/compose/', { name: other, content: twoServiceYaml() })).status).toBe(200);
    expect((await t.client.get(`/api/compose/${other}`)).status).toBe(200);
  });
});

describe('live action output', () => {
  it('streams a running action (replay so far, then output and end) and replays it to a late viewer', async () => {
    const name = newName('stream');
    expect((await t.client.post('/api/compose/', { name, content: twoServiceYaml() })).status).toBe(200);
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const cookie = [...t.client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');

    const readEvents = async (until: (events: { event: string; data: string }[]) => boolean) => {
      const controller = new AbortController();
      const res = await fetch(`${base}/api/compose/${name}/actions/stream`, {
        headers: { cookie },
        signal: controller.signal,
      });
      expect(res.headers.get('content-type')).toMatch(/text\/event-stream/);
      const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
      const events: { event: string; data: string }[] = [];
      let buf = '';
      const deadline = Date.now() + 30_000;
      while (!until(events) && Date.now() < deadline) {
        const { value, done } = await reader.read();
        if (done) break;
        buf += value;
        let end;
        while ((end = buf.indexOf('\n\n')) >= 0) {
          const block = buf.slice(0, end);
          buf = buf.slice(end + 2);
          const event = /^event: (.*)$/m.exec(block)?.[1];
          const data = [...block.matchAll(/^data: (.*)$/gm)].map((m) => m[1]).join('\n');
          if (event) events.push({ event, data });
        }
      }
      controller.abort();
      return events;
    };

    const watching = readEvents((ev) => ev.some((e) => e.event === 'end'));
    // let the viewer connect before the action starts
    await new Promise((r) => setTimeout(r, 300));
    const up = await t.client.post<ActionResult>(`/api/compose/${name}/actions/up`);
    expect(up.status, up.text).toBe(200);
    const events = await watching;
    expect(JSON.parse(events[0]!.data)).toEqual({ running: false, action: null, service: null, output: '' });
    expect(JSON.parse(events[1]!.data)).toMatchObject({ running: true, action: 'up', service: null });
    const streamed = events
      .filter((e) => e.event === 'output')
      .map((e) => e.data)
      .join('\n');
    expect(streamed).toMatch(/web/);
    expect(JSON.parse(events.at(-1)!.data)).toEqual({ action: 'up', service: null, ok: true, detail: null });

    const late = await readEvents((ev) => ev.length >= 1);
    expect(JSON.parse(late[0]!.data)).toMatchObject({ running: false, action: 'up', output: up.body.output });
  });
});
