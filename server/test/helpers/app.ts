import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { loadConfig } from '../../src/config';
import { buildApp } from '../../src/app';
import type { AppContext } from '../../src/context';
import type { AppDeps, Services } from '../../src/app-services';

export const TEST_ADMIN = { username: 'admin@berth.test', password: 'correct-horse-battery-staple' };
/** Sensitive changes (account, API keys, settings import, self-update) re-authenticate with the current password. */
export const REAUTH = { current_password: TEST_ADMIN.password };

export interface TestResponse<T = unknown> {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: T;
  text: string;
}

/** A client that keeps cookies and sends the CSRF header on every call, like the web app. */
export class TestClient {
  cookies = new Map<string, string>();
  bearer: string | null = null;
  /** Send X-CSRF-TOKEN from the csrf cookie (set false to test the CSRF check). */
  sendCsrf = true;

  /** `remoteAddress` is the client address the server sees (distinct clients for the login throttle). */
  constructor(
    private readonly app: FastifyInstance,
    readonly remoteAddress = '127.0.0.1',
  ) {}

  async request<T = unknown>(
    method: string,
    url: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<TestResponse<T>> {
    const h: Record<string, string> = { ...headers };
    if (this.cookies.size) h.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const csrf =
      url === '/api/auth/refresh' ? this.cookies.get('csrf_refresh_token') : this.cookies.get('csrf_access_token');
    if (csrf && this.sendCsrf && !('x-csrf-token' in h)) h['x-csrf-token'] = csrf;
    if (this.bearer) h.authorization = `Bearer ${this.bearer}`;
    const res = await this.app.inject({
      method: method as 'GET',
      url,
      headers: h,
      remoteAddress: this.remoteAddress,
      ...(body !== undefined ? { payload: body as object } : {}),
    });
    for (const c of res.cookies as { name: string; value: string; maxAge?: number; expires?: Date }[]) {
      const expired = c.maxAge === 0 || (c.expires && c.expires.getTime() < Date.now()) || c.value === '';
      if (expired) this.cookies.delete(c.name);
      else this.cookies.set(c.name, c.value);
    }
    let parsed: unknown = res.body;
    try {
      parsed = JSON.parse(res.body);
    } catch {
      // not JSON (a download or a stream); callers read `text`
    }
    return { status: res.statusCode, headers: res.headers, body: parsed as T, text: res.body };
  }

  get<T = unknown>(url: string, headers?: Record<string, string>) {
    return this.request<T>('GET', url, undefined, headers);
  }
  post<T = unknown>(url: string, body?: unknown, headers?: Record<string, string>) {
    return this.request<T>('POST', url, body ?? {}, headers);
  }
  patch<T = unknown>(url: string, body: unknown, headers?: Record<string, string>) {
    return this.request<T>('PATCH', url, body, headers);
  }
  delete<T = unknown>(url: string, headers?: Record<string, string>) {
    return this.request<T>('DELETE', url, undefined, headers);
  }

  async login(username = TEST_ADMIN.username, password = TEST_ADMIN.password): Promise<void> {
    const res = await this.post('/api/auth/login', { username, password });
    if (res.status !== 200) throw new Error(`login failed: ${res.status} ${res.text}`);
  }
}

export interface TestApp {
  app: FastifyInstance;
  ctx: AppContext;
  services: Services;
  dataDir: string;
  /** A client already signed in as the admin. */
  client: TestClient;
  /** A new client with no cookies (optionally from another address). */
  anon: (remoteAddress?: string) => TestClient;
  close: () => Promise<void>;
}

/**
 * Builds the real app on a fresh data dir, pointed at the harness engine (DOCKER_HOST from
 * `npm test`), with a known admin password, and signs in. Pass `DATA_DIR` to reuse a data dir
 * across restarts (the caller then removes it), and `ADMIN_PASSWORD: ''` for a first start
 * without a password (no sign-in then). `signIn: false` skips signing in.
 */
export async function createTestApp(
  env: Record<string, string> = {},
  { signIn = true } = {},
  deps: AppDeps = {},
): Promise<TestApp> {
  const ownDir = env.DATA_DIR === undefined;
  const dataDir = env.DATA_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'berth-test-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    ADMIN_EMAIL: TEST_ADMIN.username,
    ADMIN_PASSWORD: TEST_ADMIN.password,
    LOG_LEVEL: 'silent',
    // What the compose CLI needs to be found and run (config passes it on as cliEnv).
    ...(process.env.PATH ? { PATH: process.env.PATH } : {}),
    ...(process.env.HOME ? { HOME: process.env.HOME } : {}),
    ...(process.env.DOCKER_HOST ? { DOCKER_HOST: process.env.DOCKER_HOST } : {}),
    ...env,
  });
  const { app, ctx, services, startBackground } = await buildApp(config, deps);
  await app.ready();
  // What waits for the server to listen (schedulers, the stats recorder) starts here too: most tests only inject.
  startBackground();
  // The compose CLI is looked for in the background; a test's own time starts once it is known.
  await ctx.composeReady;
  const client = new TestClient(app);
  if (signIn && !config.disableAuth && config.adminPassword) await client.login();
  return {
    app,
    ctx,
    services,
    dataDir,
    client,
    anon: (remoteAddress?: string) => new TestClient(app, remoteAddress),
    close: async () => {
      await app.close();
      if (ownDir) fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A new user of `role` made by the admin, and a client signed in as them. */
export async function signedInUser(t: TestApp, email: string, role: 'operator' | 'viewer'): Promise<TestClient> {
  const password = `${role}-password-long`;
  const made = await t.client.post('/api/users', { email, password, role, ...REAUTH });
  if (made.status !== 200) throw new Error(`could not make ${email}: ${made.status} ${made.text}`);
  const c = t.anon();
  await c.login(email, password);
  return c;
}
