import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { START_ENV, START_FLAGS } from '../../scripts/start-command';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface TestServer {
  baseUrl: string;
  dataDir: string;
  /** The child-guard process; the server is its one child (the bench reads its memory from /proc). */
  guardPid: number;
  /** Everything the server printed so far (for failure messages). */
  output: () => string;
  stop: () => Promise<void>;
}

export interface StartOptions {
  /** Extra environment (ADMIN_EMAIL, ADMIN_PASSWORD, DISABLE_AUTH, ...). */
  env?: Record<string, string>;
  /** Defaults to the harness engine (BERTH_TEST_DOCKER_HOST, else DOCKER_HOST). */
  dockerHost?: string;
  startTimeoutMs?: number;
}

const LISTENING = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/;
const BUNDLE = path.join(REPO_ROOT, 'server', 'dist', 'main.mjs');

/**
 * Starts the real server as `npm start` runs it (plain node on the esbuild bundle
 * server/dist/main.mjs, with its memory flags) on a free port with a fresh data dir and waits
 * until /api/health answers. Serves web/dist; `npm test` builds both first.
 */
export async function startServer(opts: StartOptions = {}): Promise<TestServer> {
  // WEB_DIST lets a run serve its own build while web/dist is being rebuilt by another run.
  const webDist = process.env.WEB_DIST ?? path.join(REPO_ROOT, 'web', 'dist');
  if (!fs.existsSync(path.join(webDist, 'index.html'))) {
    throw new Error('web/dist is not built: run `npm run build -w web` (npm test does it)');
  }
  if (!fs.existsSync(BUNDLE))
    throw new Error('server/dist/main.mjs is not built: run `node scripts/build-server.mjs` (npm test does it)');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'berth-e2e-'));
  const dockerHost = opts.dockerHost ?? process.env.BERTH_TEST_DOCKER_HOST ?? process.env.DOCKER_HOST;
  // Only what the server needs: nothing from the developer's shell leaks into the run.
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: process.env.HOME ?? dataDir,
    HOST: '127.0.0.1',
    PORT: '0',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'info',
    WEB_DIST: webDist,
    ...(dockerHost ? { DOCKER_HOST: dockerHost } : {}),
    ...opts.env,
  };
  // Through child-guard: the server stops with this process even if afterAll never runs.
  const guard = path.join(REPO_ROOT, 'e2e', 'helpers', 'child-guard.mjs');
  const child = spawn(process.execPath, [guard, ...START_FLAGS, BUNDLE], {
    cwd: REPO_ROOT,
    env: { ...START_ENV, ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));

  const stop = () => stopChild(child).finally(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  try {
    const baseUrl = await waitForListening(child, () => out, opts.startTimeoutMs ?? 30_000);
    await waitForHealth(baseUrl, 15_000);
    return { baseUrl, dataDir, guardPid: child.pid!, output: () => out, stop };
  } catch (err) {
    await stop();
    throw new Error(`${err instanceof Error ? err.message : String(err)}\n--- server output ---\n${out.slice(-4000)}`);
  }
}

function waitForListening(child: ChildProcess, output: () => string, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => done(new Error(`server did not listen within ${timeoutMs} ms`)), timeoutMs);
    const check = () => {
      const m = LISTENING.exec(output());
      if (m?.[1]) done(null, m[1]);
    };
    const onExit = (code: number | null) => done(new Error(`server exited early (code ${code})`));
    function done(err: Error | null, url?: string) {
      clearTimeout(timer);
      child.stdout?.off('data', check);
      child.off('exit', onExit);
      if (err) reject(err);
      else resolve(url!);
    }
    child.stdout?.on('data', check);
    child.on('exit', onExit);
    check();
  });
}

async function waitForHealth(baseUrl: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  while (Date.now() < deadline) {
    try {
      const res = await fetch(`${baseUrl}/api/health`);
      if (res.ok) return;
      last = `HTTP ${res.status}`;
    } catch (err) {
      last = err instanceof Error ? err.message : String(err);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`/api/health did not answer within ${timeoutMs} ms (${last})`);
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/** The password the server generated on first start (no ADMIN_PASSWORD given). */
export function initialAdminPassword(server: TestServer): string {
  return fs.readFileSync(path.join(server.dataDir, 'initial-admin-password'), 'utf8').trim();
}
