/**
 * Self-update of the real Berth image, end to end: build the image, run it as a container,
 * push a newer image under the same tag, ask Berth to update itself, and watch the swap (and a
 * rollback to a broken image). Slow (it builds the image), so it runs only with
 * BERTH_TEST_IMAGE_BUILD=1: `BERTH_TEST_IMAGE_BUILD=1 npx vitest run server/test/self-update-image.test.ts`.
 *
 * The container uses the host's network and listens on 127.0.0.1 only, so the test talks to it
 * on this machine's loopback: never a container address, never a published port.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SelfUpdateCheck, SelfUpdateStarted } from '@berth/contract';
import { dockerCli, requireHarnessEngine, testEngine } from './helpers/engine';
import { cleanup, uniqueName } from './images-fixtures';

const ENABLED = process.env.BERTH_TEST_IMAGE_BUILD === '1';
const ROOT = path.resolve(import.meta.dirname, '../..');
const PASSWORD = 'correct-horse-battery-staple';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

/** A fetch with a cookie jar and the CSRF header, like the web app. */
class Browserish {
  private cookies = new Map<string, string>();
  constructor(private readonly base: string) {}
  async call<T>(method: string, url: string, body?: unknown): Promise<{ status: number; body: T }> {
    const headers: Record<string, string> = { cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ') };
    const csrf = this.cookies.get('csrf_access_token');
    if (csrf) headers['x-csrf-token'] = csrf;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(this.base + url, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const [k, v] = pair!.split('=');
      this.cookies.set(k!, v ?? '');
    }
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : null) as T };
  }
}

async function waitFor<T>(what: string, fn: () => Promise<T | null>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown = null;
  while (Date.now() < deadline) {
    try {
      const v = await fn();
      if (v !== null) return v;
    } catch (err) {
      last = err;
    }
    await new Promise((r) => setTimeout(r, 1000));
  }
  throw new Error(`timed out waiting for ${what}${last ? ` (last error: ${String(last)})` : ''}`);
}

const state = (name: string) =>
  JSON.parse(dockerCli(['inspect', '--format', '{{json .}}', name])) as {
    Id: string;
    Image: string;
    State: { Running: boolean; Health?: { Status: string } };
  };
const imageId = (ref: string) => dockerCli(['image', 'inspect', '--format', '{{.Id}}', ref]).trim();

/** Tags a child of `ref` (one more label, maybe another CMD) as `ref` and pushes it. */
function pushVariant(ref: string, lines: string): string {
  dockerCli(['build', '-q', '-t', ref, '-'], { input: `FROM ${ref}\n${lines}\n`, timeoutMs: 120_000 });
  dockerCli(['push', ref], { timeoutMs: 120_000 });
  return imageId(ref);
}

describe.skipIf(!ENABLED)('self-update of the built Berth image (BERTH_TEST_IMAGE_BUILD=1)', () => {
  const name = uniqueName('selfimg');
  const volume = `${name}-config`;
  // Read only when enabled: a skipped run must not need the test engine.
  const ref = ENABLED ? `${testEngine().registry}/berth-test/berth-selfupdate:latest` : '';
  let port = 0;
  let base = '';

  const healthyAt = (imageWanted: string) =>
    waitFor(
      `${name} healthy on ${imageWanted.slice(7, 19)}`,
      async () => {
        const s = state(name);
        return s.Image === imageWanted && s.State.Health?.Status === 'healthy' ? s : null;
      },
      240_000,
    );

  const signedIn = async () => {
    const b = new Browserish(base);
    const res = await b.call('POST', '/api/auth/login', { username: 'admin@berth.local', password: PASSWORD });
    expect(res.status).toBe(200);
    return b;
  };

  beforeAll(async () => {
    const engine = requireHarnessEngine();
    execFileSync('bash', [path.join(ROOT, 'scripts/build-image.sh'), '--local-base', '-t', ref, '--push'], {
      stdio: 'inherit',
      timeout: 30 * 60_000,
    });
    const socket = new URL(engine.dockerHost).pathname;
    port = await freePort();
    base = `http://127.0.0.1:${port}`;
    dockerCli(['volume', 'create', '--label', 'berth.test=1', volume]);
    dockerCli([
      'run',
      '-d',
      '--name',
      name,
      '--label',
      'berth.test=1',
      '--network',
      'host',
      '--stop-timeout',
      '5',
      '-v',
      `${socket}:/var/run/docker.sock`,
      '--group-add',
      String(fs.statSync(socket).gid),
      '-v',
      `${volume}:/config`,
      '-e',
      'HOST=127.0.0.1',
      '-e',
      `PORT=${port}`,
      '-e',
      `ADMIN_PASSWORD=${PASSWORD}`,
      '-e',
      'DOCKER_HOST=unix:///var/run/docker.sock',
      // Host networking gives the container the machine's host name, so Berth is told its name.
      '-e',
      `BERTH_CONTAINER_NAME=${name}`,
      ref,
    ]);
    await healthyAt(imageId(ref));
  }, 40 * 60_000);

  afterAll(() => {
    if (!ENABLED) return;
    const mine = dockerCli(['ps', '-a', '--filter', `name=${name}`, '--format', '{{.Names}}'])
      .split('\n')
      .filter(Boolean);
    cleanup('container', ...mine);
    cleanup('volume', volume);
  });

  it('runs as the unprivileged node user with compose inside and reports itself up to date', async () => {
    expect(dockerCli(['exec', name, 'id', '-u']).trim()).toBe('1000');
    expect(
      dockerCli(['exec', name, 'sh', '-c', 'docker-compose version --short || docker compose version --short']).trim(),
    ).toMatch(/^v?\d+\.\d+/);
    const b = await signedIn();
    const check = await b.call<SelfUpdateCheck>('GET', '/api/settings/update/status');
    expect(check.body).toMatchObject({ updatable: false, container: name, image: ref });
  });

  it(
    'updates itself to a newer image under the same tag, keeping its data',
    async () => {
      const v2 = pushVariant(ref, 'LABEL berth.test.generation="2"');
      const b = await signedIn();
      expect((await b.call<SelfUpdateCheck>('GET', '/api/settings/update/status')).body.updatable).toBe(true);
      const old = state(name);
      const started = await b.call<SelfUpdateStarted>('POST', '/api/settings/update', { current_password: PASSWORD });
      expect(started.status).toBe(200);
      expect(started.body.result).toBe('started');

      const now = await healthyAt(v2);
      expect(now.Id).not.toBe(old.Id);
      // The same admin signs in: the data volume came along.
      const again = await signedIn();
      const check = await again.call<SelfUpdateCheck>('GET', '/api/settings/update/status');
      expect(check.body).toMatchObject({ updatable: false, container: name, lastUpdate: { result: 'updated' } });
      await waitFor(
        'updater gone',
        async () =>
          dockerCli(['ps', '-a', '--filter', `name=${name}-berth-`, '--format', '{{.Names}}']).trim() === ''
            ? true
            : null,
        60_000,
      );
    },
    6 * 60_000,
  );

  it(
    'rolls back to the running version when the new image does not come up',
    async () => {
      const running = state(name);
      pushVariant(ref, 'LABEL berth.test.generation="broken"\nCMD ["node", "-e", "process.exit(3)"]');
      const b = await signedIn();
      expect((await b.call('POST', '/api/settings/update', { current_password: PASSWORD })).status).toBe(200);

      await waitFor(
        'the rollback outcome',
        async () => {
          const client = await signedIn();
          const check = await client.call<SelfUpdateCheck>('GET', '/api/settings/update/status');
          return check.body.lastUpdate?.result === 'rolled_back' ? check.body : null;
        },
        240_000,
      );
      const after = await healthyAt(running.Image);
      expect(after.Id).toBe(running.Id);
    },
    6 * 60_000,
  );
});
