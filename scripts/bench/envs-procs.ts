// The processes of scripts/bench/envs.ts, started as a user runs them: the server bundle
// (server/dist/main.mjs) with the start script's node flags and allocator settings, and the agent
// bundle (server/dist/agent-main.mjs, what `npm run agent` and the image run). Their memory and
// CPU are read from /proc.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { START_ENV, START_FLAGS } from '../start-command';
import { rssOf } from './npm-start';
import { cpuOfPid } from './private-engine';
import { signInCookies } from './lib';

const root = path.resolve(import.meta.dirname, '../..');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
export const ADMIN = { username: 'bench@berth.local', password: randomBytes(12).toString('hex') };

export interface Proc {
  child: ChildProcess;
  /** RSS in bytes now. */
  rss: () => number;
  /** CPU seconds used so far (user + system). */
  cpu: () => number;
  stop: () => Promise<void>;
}

function proc(child: ChildProcess, onStop: () => void = () => undefined): Proc {
  const exited = new Promise((r) => (child.exitCode !== null ? r(null) : child.once('exit', r)));
  return {
    child,
    rss: () => (child.exitCode === null ? rssOf(child.pid!) : 0),
    cpu: () => (child.exitCode === null ? cpuOfPid(child.pid!) : 0),
    stop: async () => {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        const t = setTimeout(() => child.kill('SIGKILL'), 15_000);
        await exited;
        clearTimeout(t);
      }
      onStop();
    },
  };
}

export interface Berth extends Proc {
  url: string;
  cookie: string;
  /** A JSON call with the session and its CSRF token. */
  call: <T>(method: string, p: string, body?: unknown) => Promise<T>;
}

/** `npm start`'s server: the bundle, built beforehand (`node scripts/build-server.mjs`). */
export async function startBerth(dockerHost: string, port: number): Promise<Berth> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'berth-bench-envs-'));
  const child = spawn(process.execPath, [...START_FLAGS, path.join(root, 'server/dist/main.mjs')], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      ...START_ENV,
      DATA_DIR: dataDir,
      HOST: '127.0.0.1',
      PORT: String(port),
      ADMIN_EMAIL: ADMIN.username,
      ADMIN_PASSWORD: ADMIN.password,
      LOG_LEVEL: 'warn',
      DOCKER_HOST: dockerHost,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  while ((await fetch(`${url}/api/health`).catch(() => null))?.ok !== true) {
    if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode})`);
    if (Date.now() > deadline) throw new Error('the server was not ready within 120 s');
    await sleep(100);
  }
  const cookie = await signInCookies(url, ADMIN);
  const csrf = /csrf_access_token=([^;]+)/.exec(cookie)?.[1] ?? '';
  const call = async <T>(method: string, p: string, body?: unknown): Promise<T> => {
    const res = await fetch(url + p, {
      method,
      headers: {
        cookie,
        'x-csrf-token': csrf,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${p}: ${res.status} ${text.slice(0, 300)}`);
    return JSON.parse(text) as T;
  };
  const p = proc(child, () => fs.rmSync(dataDir, { recursive: true, force: true }));
  return { ...p, url, cookie, call };
}

/** `berth agent` beside the engine at `dockerHost` (a unix socket), enrolling with `token`. */
export function startAgent(berthUrl: string, dockerHost: string, token: string): Proc {
  const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'berth-bench-agent-'));
  const child = spawn(process.execPath, [path.join(root, 'server/dist/agent-main.mjs')], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      BERTH_URL: berthUrl,
      BERTH_AGENT_TOKEN: token,
      BERTH_AGENT_STATE: stateDir,
      DOCKER_HOST: dockerHost,
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return proc(child, () => fs.rmSync(stateDir, { recursive: true, force: true }));
}
