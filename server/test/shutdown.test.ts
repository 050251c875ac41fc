import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { afterEach, describe, expect, it } from 'vitest';
import { TEST_ADMIN } from './helpers/app';
import { testEngine } from './helpers/engine';
import { hangingYaml, trackedProjects } from './helpers/compose-projects';
import { processesMentioning } from './helpers/leaks';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const projects = trackedProjects();
const started: { child: ChildProcess; dataDir: string }[] = [];

afterEach(() => {
  for (const { child, dataDir } of started.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  projects.cleanup();
});

/** Berth as a real process (`node --import tsx server/src/main.ts`), signed in over HTTP. */
async function startBerth() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'berth-test-'));
  const env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: process.env.HOME ?? dataDir,
    HOST: '127.0.0.1',
    PORT: '0',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'info',
    WEB_DIST: path.join(dataDir, 'no-web'),
    DOCKER_HOST: testEngine().dockerHost,
    ADMIN_EMAIL: TEST_ADMIN.username,
    ADMIN_PASSWORD: TEST_ADMIN.password,
  };
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], {
    cwd: REPO_ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.push({ child, dataDir });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  await expect
    .poll(() => /Server listening at http:\/\/127\.0\.0\.1:\d+/.test(out) || child.exitCode !== null, {
      timeout: 60_000,
      interval: 200,
    })
    .toBe(true);
  const base = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1];
  if (!base) throw new Error(`Berth did not start:\n${out}`);
  const login = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(TEST_ADMIN),
  });
  expect(login.status).toBe(200);
  const cookies = login.headers.getSetCookie().map((c) => c.split(';')[0]!);
  const csrf = cookies.find((c) => c.startsWith('csrf_access_token='))!.split('=')[1]!;
  const headers = { cookie: cookies.join('; '), 'x-csrf-token': csrf };
  return { child, base, headers, exited, output: () => out };
}

describe('shutdown', () => {
  it('on SIGTERM during a compose action stops the compose child, answers the action, ends streams with `end` and exits 0', async () => {
    const berth = await startBerth();
    const name = projects.name('sigterm');
    const created = await fetch(`${berth.base}/api/compose/`, {
      method: 'POST',
      headers: { ...berth.headers, 'content-type': 'application/json' },
      body: JSON.stringify({ name, content: hangingYaml() }),
    });
    expect(created.status, await created.text()).toBe(200);

    const events: EventSourceMessage[] = [];
    const parser = createParser({ onEvent: (e) => events.push(e) });
    const stream = await fetch(`${berth.base}/api/compose/${name}/actions/stream`, { headers: berth.headers });
    // Failures are kept, not thrown, so an early end shows up in the assertions below.
    const streamDone = (async () => {
      const reader = stream.body!.pipeThrough(new TextDecoderStream()).getReader();
      for (let next = await reader.read(); !next.done; next = await reader.read()) parser.feed(next.value);
    })().then(
      () => 'ended',
      (err: unknown) => `failed: ${String(err)}`,
    );
    const action = fetch(`${berth.base}/api/compose/${name}/actions/up`, {
      method: 'POST',
      headers: berth.headers,
    }).then(
      async (res) => ({ status: res.status, body: await res.text() }),
      (err: unknown) => ({ status: 0, body: String(err) }),
    );
    // The CLI is running and has got as far as creating the container it then waits on.
    await expect
      .poll(
        () =>
          processesMentioning(`-p\0${name}\0`).length > 0 &&
          events.some((e) => e.event === 'output' && /never/.test(e.data)),
        { timeout: 120_000, interval: 250 },
      )
      .toBe(true);

    berth.child.kill('SIGTERM');
    const code = await berth.exited;
    expect(code, berth.output()).toBe(0);
    expect(berth.output()).not.toMatch(/error during shutdown/);

    const answered = await action;
    expect(answered.status, `${answered.body}\n${berth.output()}`).toBe(503);
    expect(answered.body).toMatch(/stopped because Berth is shutting down/);
    expect(await streamDone).toBe('ended');
    const ends = events.filter((e) => e.event === 'end').map((e) => JSON.parse(e.data) as Record<string, unknown>);
    expect(ends).toEqual([
      expect.objectContaining({ action: 'up', ok: false }),
      { reason: 'shutdown', detail: 'Berth is shutting down.' },
    ]);
    expect(processesMentioning(`-p\0${name}\0`)).toEqual([]);
  });

  it('on SIGTERM with a request in flight on a keep-alive connection answers it with Connection: close and exits 0 at once', async () => {
    const berth = await startBerth();
    const { hostname, port } = new URL(berth.base);
    const socket = net.connect(Number(port), hostname);
    await once(socket, 'connect');
    let received = '';
    socket.setEncoding('utf8').on('data', (d: string) => (received += d));
    let hungUp = false;
    socket.on('close', () => (hungUp = true));
    // `Expect: 100-continue`: the server's "100 Continue" says it holds the request, body still to come.
    const body = JSON.stringify(TEST_ADMIN);
    socket.write(
      `POST /api/auth/login HTTP/1.1\r\nHost: ${hostname}:${port}\r\nConnection: keep-alive\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nExpect: 100-continue\r\n\r\n`,
    );
    await expect.poll(() => received, { timeout: 10_000 }).toMatch(/^HTTP\/1\.1 100 Continue/);

    const signalled = Date.now();
    berth.child.kill('SIGTERM');
    await expect.poll(() => berth.output(), { timeout: 10_000 }).toMatch(/shutting down/);
    socket.write(body);
    const code = await Promise.race([
      berth.exited,
      new Promise<string>((r) => setTimeout(() => r('still running after 8 s'), 8000)),
    ]);
    expect(code, berth.output()).toBe(0);
    expect(Date.now() - signalled).toBeLessThan(8000);
    expect(received).toMatch(/\r\nHTTP\/1\.1 200 OK\r\n/);
    expect(received).toMatch(/\r\nconnection: close\r\n/i);
    await expect.poll(() => hungUp).toBe(true);
  });
});
