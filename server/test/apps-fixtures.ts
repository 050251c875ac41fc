import fs from 'node:fs';
import net from 'node:net';
import type { FastifyInstance } from 'fastify';
import { dockerCli, testEngine } from './helpers/engine';
import type { TestClient } from './helpers/app';

const TICKER =
  'n=$(cat /tmp/runs 2>/dev/null || echo 0); n=$((n+1)); echo $n > /tmp/runs; i=0; while true; do i=$((i+1)); echo "run $n line $i"; sleep 0.2; done';

/**
 * Starts a labelled busybox container (or one running `script` instead) that prints "run <n> line <i>" five times a second; <n>
 * counts its starts (kept in its filesystem), so lines of a restart differ from the first run's.
 */
export function runTicker(name: string, extra: string[] = [], image = testEngine().image, script = TICKER): string {
  return dockerCli([
    'run',
    '-d',
    '--name',
    name,
    '--label',
    'berth.test=1',
    '--stop-timeout',
    '1',
    ...extra,
    image,
    'sh',
    '-c',
    script,
  ]).trim();
}

export function inspect<T = Record<string, unknown>>(name: string): T {
  return (JSON.parse(dockerCli(['inspect', name])) as T[])[0]!;
}

export const cookieHeader = (client: TestClient) => [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');

/** Listens on 127.0.0.1 and a free port; returns the base URL. */
export async function listen(app: FastifyInstance): Promise<string> {
  return app.listen({ host: '127.0.0.1', port: 0 });
}

export interface SseEvent {
  event: string;
  data: string;
}

/** Reads a real server-sent event stream over HTTP, as a browser's EventSource would. */
export class SseReader {
  readonly events: SseEvent[] = [];
  readonly comments: string[] = [];
  /** The response's Content-Encoding (fetch decodes the body). */
  encoding = 'identity';
  private readonly abort = new AbortController();
  private notify: (() => void) | null = null;
  private ended = false;

  private constructor() {}

  static async open(base: string, path: string, cookie: string): Promise<SseReader> {
    const r = new SseReader();
    const res = await fetch(base + path, { headers: { cookie, accept: 'text/event-stream' }, signal: r.abort.signal });
    if (res.status !== 200 || !res.headers.get('content-type')?.startsWith('text/event-stream')) {
      throw new Error(`${path}: ${res.status} ${await res.text()}`);
    }
    r.encoding = res.headers.get('content-encoding') ?? 'identity';
    void r.pump(res.body!);
    return r;
  }

  updates(): string[] {
    return this.events.filter((e) => e.event === 'update').map((e) => e.data);
  }

  of<T = unknown>(event: string): T[] {
    return this.events.filter((e) => e.event === event).map((e) => JSON.parse(e.data) as T);
  }

  /** Waits until `check` holds for what arrived so far. */
  async waitFor(check: (r: SseReader) => boolean, what: string, timeoutMs = 20_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!check(this)) {
      if (this.ended) throw new Error(`stream ended while waiting for ${what}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out waiting for ${what}; got ${JSON.stringify(this.events.slice(-5))}`);
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, Math.min(left, 500));
        this.notify = () => {
          clearTimeout(t);
          resolve();
        };
      });
    }
  }

  get isEnded(): boolean {
    return this.ended;
  }

  close(): void {
    this.abort.abort();
  }

  private async pump(body: ReadableStream<Uint8Array>): Promise<void> {
    try {
      await readSseBlocks(body, (b) => {
        if (b.event) this.events.push({ event: b.event, data: b.data });
        this.comments.push(...b.comments);
        this.notify?.();
      });
    } catch (err) {
      // Aborted by close(), or the server went away: waitFor() reports the end.
      if (!this.abort.signal.aborted) this.comments.push(`reader error: ${String(err)}`);
    } finally {
      this.ended = true;
      this.notify?.();
    }
  }
}

export interface SseBlock {
  event?: string;
  data: string;
  comments: string[];
}

/** Reads a server-sent event body to its end, handing over each block (an event or comments) as it arrives. */
export async function readSseBlocks(body: ReadableStream<Uint8Array>, onBlock: (b: SseBlock) => void): Promise<void> {
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true });
    let end: number;
    while ((end = buffer.indexOf('\n\n')) !== -1) {
      const lines = buffer.slice(0, end).split('\n');
      buffer = buffer.slice(end + 2);
      onBlock({
        event: lines.find((l) => l.startsWith('event: '))?.slice(7),
        data: lines
          .filter((l) => l.startsWith('data: '))
          .map((l) => l.slice(6))
          .join('\n'),
        comments: lines.filter((l) => l.startsWith(': ')).map((l) => l.slice(2)),
      });
    }
  }
}

export async function until(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** One engine request that passed an EngineLink: method and path, without the API version, query or object IDs. */
export interface EngineCall {
  at: number;
  call: string;
}

/** `GET /v1.41/containers/abc…/stats?stream=1` → `GET /containers/{id}/stats`. */
const normalizeCall = (method: string, url: string) =>
  `${method} ${url
    .replace(/^\/v[\d.]+/, '')
    .replace(/\?.*$/, '')
    .replace(/^\/(containers|images|networks|volumes|exec)\/[^/]+(?=\/)/, '/$1/{id}')}`;

/**
 * A socket that forwards to the real engine and can be cut and restored: to Berth the engine
 * goes away and comes back, while the containers keep running on the real engine. It records
 * each request line that passes (one split across two reads is missed; engine clients send
 * small requests), so tests and the benchmark can count Berth's engine calls.
 */
export class EngineLink {
  readonly calls: EngineCall[] = [];
  /** Holds back the engine's answers to this call (e.g. `POST /exec/{id}/start`) by `ms`: a slow engine, for real. */
  slowReplies: { call: string; ms: number } | null = null;
  private server: net.Server | null = null;
  private sockets = new Set<net.Socket>();

  constructor(
    readonly socketPath: string,
    private readonly enginePath: string,
  ) {}

  up(): Promise<void> {
    fs.rmSync(this.socketPath, { force: true });
    const server = net.createServer((client) => {
      const engine = net.connect(this.enginePath);
      for (const s of [client, engine]) {
        this.sockets.add(s);
        s.on('close', () => this.sockets.delete(s));
        s.on('error', () => (s === client ? engine : client).destroy());
      }
      // The engine's answers on a connection whose request matched `slowReplies` reach Berth late.
      let lateBy = 0;
      client.on('data', (chunk: Buffer) => {
        for (const m of chunk
          .toString('latin1')
          .matchAll(/(?:^|\r\n)(GET|POST|PUT|DELETE|HEAD) (\S+) HTTP\/1\.[01]\r\n/g)) {
          const call = normalizeCall(m[1]!, m[2]!);
          this.calls.push({ at: Date.now(), call });
          if (this.slowReplies?.call === call) lateBy = this.slowReplies.ms;
        }
      });
      client.pipe(engine);
      // A client that goes away closes its end towards the engine, as a direct connection would.
      client.on('close', () => engine.end());
      engine.on('data', (chunk: Buffer) => {
        if (lateBy === 0) client.write(chunk);
        else setTimeout(() => !client.destroyed && client.write(chunk), lateBy);
      });
      engine.on('end', () => setTimeout(() => client.end(), lateBy));
    });
    this.server = server;
    return new Promise((resolve) => server.listen(this.socketPath, resolve));
  }

  /** How many recorded calls since `since` (ms) were `call`. */
  count(call: string, since = 0): number {
    return this.calls.filter((c) => c.call === call && c.at >= since).length;
  }

  down(): Promise<void> {
    const server = this.server;
    this.server = null;
    for (const s of this.sockets) s.destroy();
    return new Promise((resolve) => (server ? server.close(() => resolve()) : resolve()));
  }
}
