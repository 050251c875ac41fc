import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCodeSchema, type ApiError, type ErrorCode } from '@berth/contract';
import {
  AppError,
  ComposeFailedError,
  ComposeUnknownError,
  DatabaseBusyError,
  ERROR_STATUS,
  InsufficientStorageError,
  RestoreFailedError,
  UpdaterMissingError,
  UpToDateError,
} from '../src/errors';
import { registerErrorHandler } from '../src/plugins/error-handler';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { createTestApp, REAUTH, type TestApp, type TestResponse } from './helpers/app';
import { IDLE_COMMAND, testEngine } from './helpers/engine';
import { cleanup, uniqueName } from './images-fixtures';

/** Every code some test below produced, with the status it came with. */
const seen = new Map<ErrorCode, number>();

function expectCode(res: TestResponse<ApiError>, code: ErrorCode): void {
  expect(res.body.code, JSON.stringify(res.body)).toBe(code);
  expect(res.status).toBe(ERROR_STATUS[code]);
  expect(typeof res.body.detail).toBe('string');
  expect(res.body.detail.length).toBeGreaterThan(0);
  seen.set(code, res.status);
}

function multipart(content: string) {
  const boundary = `----berth${Math.random().toString(16).slice(2)}`;
  // Re-authentication (issue 22.5) comes first, so the file is what the import judges.
  const password = `--${boundary}\r\nContent-Disposition: form-data; name="current_password"\r\n\r\n${REAUTH.current_password}\r\n`;
  const body = `${password}--${boundary}\r\nContent-Disposition: form-data; name="upload"; filename="settings.json"\r\nContent-Type: application/json\r\n\r\n${content}\r\n--${boundary}--\r\n`;
  return { body, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

describe('every error code, produced by a real request', () => {
  let t: TestApp;
  let catalogue: http.Server;
  let catalogueUrl = '';
  const containers: string[] = [];

  beforeAll(async () => {
    // A catalogue server on loopback: one path per way a catalogue fetch can fail.
    catalogue = http.createServer((req, res) => {
      if (req.url === '/hang') return; // never answers
      if (req.url === '/error') return void res.writeHead(500).end('boom');
      // Declares more than the cap, so the refusal does not depend on how fast the bytes flow.
      if (req.url === '/big')
        return void res
          .writeHead(200, { 'content-type': 'application/json', 'content-length': String(6 * 1024 * 1024) })
          .write('[');
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"this is": "not a catalogue"');
    });
    await new Promise<void>((resolve) => catalogue.listen(0, '127.0.0.1', resolve));
    catalogueUrl = `http://127.0.0.1:${(catalogue.address() as net.AddressInfo).port}`;
    t = await createTestApp({ TEMPLATE_FETCH_ALLOW_LOOPBACK: 'true', TEMPLATE_FETCH_TIMEOUT_SECONDS: '3' });
  });
  afterAll(async () => {
    cleanup('container', ...containers);
    await t?.close();
    catalogue.closeAllConnections();
    await new Promise((resolve) => catalogue.close(resolve));
  });

  it('validation_error: a body that does not fit the schema', async () => {
    expectCode(await t.client.post<ApiError>('/api/resources/volumes/', {}), 'validation_error');
  });

  it('unauthorized: no session', async () => {
    expectCode(await t.anon().get<ApiError>('/api/apps/'), 'unauthorized');
  });

  it('csrf_failed: a mutation without the CSRF header', async () => {
    t.client.sendCsrf = false;
    try {
      expectCode(
        await t.client.post<ApiError>('/api/resources/volumes/', { name: uniqueName('codes') }),
        'csrf_failed',
      );
    } finally {
      t.client.sendCsrf = true;
    }
  });

  it('environment_unreachable: a new environment whose engine refuses the connection', async () => {
    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as net.AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const { privateKey } = crypto.generateKeyPairSync('rsa', {
      modulusLength: 2048,
      privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
      publicKeyEncoding: { type: 'spki', format: 'pem' },
    });
    const res = await t.client.post<ApiError>('/api/environments', {
      name: 'nowhere',
      url: `ssh://nobody@127.0.0.1:${port}`,
      ssh: { private_key: privateKey },
    });
    expectCode(res, 'environment_unreachable');
    expect(res.body.detail).toMatch(/connection refused/);
  });

  it('not_found: an unknown app', async () => {
    expectCode(await t.client.get<ApiError>(`/api/apps/${uniqueName('codes-none')}`), 'not_found');
  });

  it('conflict: a network name that is built in', async () => {
    expectCode(await t.client.post<ApiError>('/api/resources/networks/', { name: 'bridge' }), 'conflict');
  });

  it('too_many_requests: repeated failed sign-ins from one address', async () => {
    const client = t.anon('10.9.8.7');
    let res: TestResponse<ApiError> | null = null;
    for (let i = 0; i < 30; i++) {
      res = await client.post<ApiError>('/api/auth/login', {
        username: 'nobody@berth.test',
        password: 'wrong-password-123',
      });
      if (res.status === 429) break;
    }
    expectCode(res!, 'too_many_requests');
  });

  it('payload_too_large: a JSON body over the limit', async () => {
    expectCode(
      await t.client.post<ApiError>('/api/resources/volumes/', { name: 'x'.repeat(2 * 1024 * 1024) }),
      'payload_too_large',
    );
  });

  it('engine_error: a pull from a registry nobody listens on', async () => {
    expectCode(
      await t.client.post<ApiError>('/api/resources/images/', { image: '127.0.0.1:1/berth-test/nothing:latest' }),
      'engine_error',
    );
  });

  it('image_pull_failed: a deploy whose image cannot be pulled', async () => {
    const name = uniqueName('codes-pull');
    containers.push(name);
    const res = await t.client.post<ApiError>('/api/apps/deploy', {
      name,
      image: '127.0.0.1:1/berth-test/nothing:latest',
      restart_policy: 'none',
      labels: [{ label: 'berth.test', value: '1' }],
    });
    expectCode(res, 'image_pull_failed');
  });

  it('port_in_use: a second app on a host port another app holds', async () => {
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as net.AddressInfo).port;
    await new Promise((resolve) => server.close(resolve));
    const deploy = (name: string) =>
      t.client.post<ApiError>('/api/apps/deploy', {
        name,
        image: testEngine().image,
        restart_policy: 'none',
        command: IDLE_COMMAND,
        ports: [{ cport: '80', hport: String(port), proto: 'tcp' }],
        labels: [{ label: 'berth.test', value: '1' }],
      });
    const first = uniqueName('codes-port');
    const second = uniqueName('codes-port');
    containers.push(first, second);
    const ok = await deploy(first);
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expectCode(await deploy(second), 'port_in_use');
  });

  it('blocked_address, upstream_timeout, upstream_error, catalogue_too_large, invalid_catalogue: catalogue fetches', async () => {
    const add = (url: string) => t.client.post<ApiError>('/api/templates/', { title: uniqueName('codes'), url });
    expectCode(await add('http://169.254.169.254/latest/meta-data'), 'blocked_address');
    expectCode(await add(`${catalogueUrl}/hang`), 'upstream_timeout');
    expectCode(await add(`${catalogueUrl}/error`), 'upstream_error');
    expectCode(await add(`${catalogueUrl}/big`), 'catalogue_too_large');
    expectCode(await add(`${catalogueUrl}/bad`), 'invalid_catalogue');
  });

  it('invalid_json, forbidden_key, invalid_settings_file: settings imports', async () => {
    const post = (content: string) => {
      const { body, headers } = multipart(content);
      return t.client.request<ApiError>('POST', '/api/settings/export', body, headers);
    };
    expectCode(await post('{not json'), 'invalid_json');
    expectCode(await post('{"__proto__": {}}'), 'forbidden_key');
    expectCode(await post('[1, 2, 3]'), 'invalid_settings_file');
  });

  it('not_in_container: a self-update where Berth runs outside a container', async () => {
    expectCode(await t.client.post<ApiError>('/api/settings/update', REAUTH), 'not_in_container');
  });

  it('not_in_swarm: swarm pages on an engine that is not a swarm manager', async () => {
    expectCode(await t.client.get<ApiError>('/api/swarm'), 'not_in_swarm');
  });

  it('reauth_failed: a self-update with a wrong current password', async () => {
    expectCode(
      await t.client.post<ApiError>('/api/settings/update', { current_password: 'not-the-password' }),
      'reauth_failed',
    );
  });

  it('forbidden: a viewer calling a route that needs the operator role', async () => {
    await t.client.post('/api/users', {
      email: 'codes-viewer@berth.test',
      password: 'codes-viewer-pw',
      role: 'viewer',
      ...REAUTH,
    });
    const viewer = t.anon();
    await viewer.login('codes-viewer@berth.test', 'codes-viewer-pw');
    expectCode(
      await viewer.post<ApiError>('/api/resources/volumes/', { name: uniqueName('codes-forbidden') }),
      'forbidden',
    );
  });

  it("policy_denied: an operator's privileged compose file under the default policy", async () => {
    await t.client.post('/api/users', {
      email: 'codes-operator@berth.test',
      password: 'codes-operator-pw',
      role: 'operator',
      ...REAUTH,
    });
    const operator = t.anon();
    await operator.login('codes-operator@berth.test', 'codes-operator-pw');
    expectCode(
      await operator.post<ApiError>('/api/compose/', {
        name: 'codes-policy',
        content: `services:\n  a:\n    image: ${testEngine().image}\n    privileged: true\n`,
      }),
      'policy_denied',
    );
  });

  it('host_not_allowed: a request naming a host Berth does not serve (DNS rebinding)', async () => {
    expectCode(
      await t.client.request<ApiError>('GET', '/api/apps/', undefined, { host: 'attacker.example' }),
      'host_not_allowed',
    );
  });
});

describe('codes that need another app', () => {
  it('docker_unavailable: the engine socket is not there', async () => {
    const t = await createTestApp({ DOCKER_HOST: `unix:///tmp/${uniqueName('no-engine')}.sock` });
    try {
      expectCode(await t.client.get<ApiError>('/api/apps/'), 'docker_unavailable');
    } finally {
      await t.close();
    }
  });

  it('shutting_down: a call that arrives while Berth closes, answered with Connection: close', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'berth-test-'));
    const { app } = await buildApp(
      loadConfig({
        DATA_DIR: dataDir,
        LOG_LEVEL: 'silent',
        ADMIN_PASSWORD: REAUTH.current_password,
        DOCKER_HOST: testEngine().dockerHost,
        ...(process.env.PATH ? { PATH: process.env.PATH } : {}),
      }),
    );
    // Closing holds here (as it does while running compose actions are stopped), still listening.
    let release!: () => void;
    const closing = new Promise<void>((entered) =>
      app.addHook('preClose', () => {
        entered();
        return new Promise<void>((r) => (release = r));
      }),
    );
    const base = await app.listen({ host: '127.0.0.1', port: 0 });
    const closed = app.close();
    try {
      await closing;
      const res = await fetch(`${base}/api/health`);
      expect(res.headers.get('connection')).toBe('close');
      const text = await res.text();
      expectCode({ status: res.status, headers: {}, body: JSON.parse(text) as ApiError, text }, 'shutting_down');
    } finally {
      release();
      await closed;
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('engine_timeout: the engine accepts connections and never answers', async () => {
    const sockets = new Set<net.Socket>();
    const server = net.createServer((s) => {
      sockets.add(s);
      s.on('error', () => undefined);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const t = await createTestApp({
      DOCKER_HOST: `tcp://127.0.0.1:${(server.address() as net.AddressInfo).port}`,
      ENGINE_TIMEOUT_SECONDS: '1',
    });
    try {
      expectCode(await t.client.get<ApiError>('/api/resources/volumes/'), 'engine_timeout');
    } finally {
      await t.close();
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('auth_disabled: signing in while authentication is off', async () => {
    const t = await createTestApp({ DISABLE_AUTH: 'true' }, { signIn: false });
    try {
      expectCode(
        await t.anon().post<ApiError>('/api/auth/login', { username: 'a@b.test', password: 'whatever-123' }),
        'auth_disabled',
      );
    } finally {
      await t.close();
    }
  });
});

describe('codes no request can produce today, and the generic 500', () => {
  it('compose_failed, restore_failed, updater_missing, up_to_date carry their table status', () => {
    // They need a broken compose CLI, an engine that fails mid-rollback, a build without the
    // updater or a registry with nothing newer — not causable here.
    const made: AppError[] = [
      new ComposeFailedError('docker compose up failed (exit 1): …'),
      new RestoreFailedError('Restoring the previous container also failed.'),
      new UpdaterMissingError('This build of Berth has no updater.'),
      new UpToDateError('Berth already runs the newest image.'),
    ];
    for (const err of made) {
      expect(err.statusCode).toBe(ERROR_STATUS[err.code]);
      seen.set(err.code, err.statusCode);
    }
  });

  it('insufficient_storage, database_busy, compose_unknown carry their table status (caused for real in storage-faults.test.ts and health.test.ts)', () => {
    // A full DATA_DIR (a filled tmpfs), a second process holding the write lock and a slow compose CLI need a test app of their own.
    const made: AppError[] = [
      new InsufficientStorageError('Disk full: …'),
      new DatabaseBusyError(),
      new ComposeUnknownError(),
    ];
    for (const err of made) {
      expect(err.statusCode).toBe(ERROR_STATUS[err.code]);
      seen.set(err.code, err.statusCode);
    }
    expect(ERROR_STATUS.insufficient_storage).toBe(507);
  });

  it('internal_error: an unexpected failure answers the generic text, never its own message', async () => {
    const app = Fastify({ logger: false });
    registerErrorHandler(app);
    app.get('/boom', () => {
      throw new Error('secret internal detail: /etc/berth/key at 0xdeadbeef');
    });
    const res = await app.inject({ method: 'GET', url: '/boom' });
    await app.close();
    const body = res.json<ApiError>();
    expect(res.statusCode).toBe(500);
    expect(body).toEqual({ detail: 'Internal server error. The server log has the details.', code: 'internal_error' });
    expect(res.body).not.toContain('secret');
    seen.set(body.code, res.statusCode);
  });

  it('covers every code in the table, and the table covers every code', () => {
    const all = ErrorCodeSchema.options;
    expect(Object.keys(ERROR_STATUS).sort()).toEqual([...all].sort());
    expect([...all].filter((c) => !seen.has(c))).toEqual([]);
  });
});
