// Small helpers for the benchmark: the docker CLI (argv arrays), raw engine requests, SSE viewers.
import { fork, spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { START_ENV, START_FLAGS } from '../start-command';
import { readSseBlocks } from '../../server/test/apps-fixtures';
import type { Probe } from './server';

const CLI = process.env.BERTH_TEST_DOCKER_CLI || 'docker';

/** Runs the docker CLI against DOCKER_HOST; resolves with stdout, rejects with stderr on failure. */
export function docker(args: string[], timeoutMs = 120_000): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(CLI, args, {
      shell: false,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, DOCKER_CLI_HINTS: 'false' },
    });
    let out = '';
    let err = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.stdout.setEncoding('utf8').on('data', (s: string) => (out += s));
    child.stderr.setEncoding('utf8').on('data', (s: string) => (err += s));
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve(out);
      else reject(new Error(`docker ${args.slice(0, 3).join(' ')} exited ${code}: ${err.trim()}`));
    });
  });
}

/** Runs `fn` over `items`, `n` at a time. */
export async function parallel<T>(items: T[], n: number, fn: (item: T) => Promise<unknown>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await fn(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(n, items.length) }, worker));
}

type Target = { socketPath: string } | { host: string; port: number };

/** One request on a fresh connection, reading the whole body; resolves with the body on a 2xx. */
function request(
  target: Target,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: unknown,
): Promise<string> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const h =
      payload === undefined
        ? headers
        : { ...headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(payload)) };
    const req = http.request({ ...target, path, method, headers: h, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        if (res.statusCode && res.statusCode >= 200 && res.statusCode < 300) resolve(text);
        else reject(new Error(`${method} ${path}: ${res.statusCode} ${text.slice(0, 200)}`));
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(payload);
  });
}

const get = (target: Target, path: string, headers: Record<string, string> = {}) =>
  request(target, 'GET', path, headers);

function engineTarget(): Target {
  const url = new URL(process.env.DOCKER_HOST ?? 'unix:///var/run/docker.sock');
  return url.protocol === 'unix:'
    ? { socketPath: url.pathname }
    : { host: url.hostname, port: Number(url.port || 2375) };
}

/** GET on the engine API itself (the DOCKER_HOST socket). */
export function engineGet(path: string): Promise<string> {
  return get(engineTarget(), path);
}

/** Any call on the engine API (a JSON body when given); resolves with the response body. */
export function engineCall(method: string, path: string, body?: unknown): Promise<string> {
  return request(engineTarget(), method, path, {}, body);
}

/** GET on the Berth server, the same way (fresh connection, whole body). */
export function serverGet(base: string, path: string, cookie: string): Promise<string> {
  const url = new URL(base);
  return get({ host: url.hostname, port: Number(url.port) }, path, { cookie });
}

export async function timed(fn: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/** Least-squares slope of y over x. */
export function slope(points: [number, number][]): number {
  const n = points.length;
  const mx = points.reduce((s, [x]) => s + x, 0) / n;
  const my = points.reduce((s, [, y]) => s + y, 0) / n;
  const num = points.reduce((s, [x, y]) => s + (x - mx) * (y - my), 0);
  const den = points.reduce((s, [x]) => s + (x - mx) ** 2, 0);
  return den === 0 ? 0 : num / den;
}

export const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MiB`;

/** A dashboard viewer: reads the SSE stream and counts samples per app. */
export class Viewer {
  readonly seen = new Map<string, number>();
  /** Every sample's app and sample time (ms), to check nothing was dropped. */
  readonly received: Array<[string, number]> = [];
  samples = 0;
  private readonly abort = new AbortController();

  static async open(url: string, cookie: string): Promise<Viewer> {
    const v = new Viewer();
    const res = await fetch(url, { headers: { cookie }, signal: v.abort.signal });
    if (res.status !== 200) throw new Error(`${url}: ${res.status} ${await res.text()}`);
    void v.read(res.body!);
    return v;
  }

  close(): void {
    this.abort.abort();
  }

  private async read(body: ReadableStream<Uint8Array>): Promise<void> {
    try {
      await readSseBlocks(body, (b) => {
        if (b.event !== 'update') return;
        const { name, time } = JSON.parse(b.data) as { name: string; time: string };
        this.samples++;
        this.received.push([name, Date.parse(time)]);
        this.seen.set(name, (this.seen.get(name) ?? 0) + 1);
      });
    } catch (err) {
      if (!this.abort.signal.aborted) console.error('[bench] viewer stream failed:', err);
    }
  }
}

/**
 * Runs a bench's `main`, then its `cleanup` whatever happens; SIGINT/SIGTERM clean up too
 * (the containers it made carry berth.bench=1), so an interrupted run leaves nothing behind.
 */
export function runBench(main: () => Promise<void>, cleanup: () => Promise<void>): void {
  let stopping = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      console.log(`[bench] ${signal}: cleaning up`);
      void cleanup().finally(() => process.exit(130));
    });
  }
  main()
    .then(cleanup, async (err: unknown) => {
      console.error('[bench] failed:', err instanceof Error ? err.message : err);
      await cleanup();
      process.exitCode = 1;
    })
    .catch((err: unknown) => {
      console.error('[bench] cleanup failed:', err);
      process.exitCode = 1;
    });
}

/** Per app, how many of `samples` have a sample time in [from, to). */
export function tally(samples: Array<[string, number]>, from: number, to: number): Map<string, number> {
  const out = new Map<string, number>();
  for (const [name, t] of samples) if (t >= from && t < to) out.set(name, (out.get(name) ?? 0) + 1);
  return out;
}

/** Signs in and returns the session cookies as one Cookie header value. */
export async function signInCookies(url: string, admin: { username: string; password: string }): Promise<string> {
  const res = await fetch(`${url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(admin),
  });
  if (res.status !== 200) throw new Error(`login failed: ${res.status} ${await res.text()}`);
  return res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
}

export interface BenchServer {
  child: ChildProcess;
  url: string;
  /** A probe of the server process (memory, CPU since the previous probe, stats hub); `fanned` adds every sample the hub handed out. */
  ask: (opts?: { fanned?: boolean }) => Promise<Probe>;
}

/** Forks scripts/bench/server.ts (the server in its own process) with `env` added; resolves once it listens. */
export function forkBenchServer(env: Record<string, string>): Promise<BenchServer> {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const child = fork(path.join(here, 'server.ts'), [], {
    cwd: path.resolve(here, '../..'),
    // With the start script's V8 flags and allocator settings, so the figures are the shipped server's.
    execArgv: ['--import', 'tsx', ...START_FLAGS],
    env: { ...START_ENV, ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const ask = (opts: { fanned?: boolean } = {}) =>
    new Promise<Probe>((resolve) => {
      const on = (m: Probe) => {
        if (m.type !== 'probe') return;
        child.off('message', on);
        resolve(m);
      };
      child.on('message', on);
      child.send({ type: 'probe', ...opts });
    });
  return new Promise((resolve, reject) => {
    // A server that never got ready is stopped here: the bench's cleanup knows only the started ones.
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error('the server did not start within 180 s (a loaded machine)'));
    }, 180_000);
    child.on('exit', (code) => reject(new Error(`the server exited (${code})`)));
    child.on('message', (m: { type?: string; url?: string }) => {
      if (m.type !== 'ready') return;
      clearTimeout(timer);
      resolve({ child, url: m.url!, ask });
    });
  });
}
