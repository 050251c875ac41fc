import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiError, Health, ServerInfo } from '@berth/contract';
import { loadConfig } from '../src/config';
import { buildApp } from '../src/app';
import { detectComposeCli, type ComposeCli } from '../src/compose/cli';
import { createTestApp, TEST_ADMIN, TestClient, type TestApp } from './helpers/app';

/**
 * Berth answers before it knows its compose CLI: the detection runs in the background. The test
 * holds the detection open (the real CLI, found beforehand, handed over when the test says so)
 * to see both sides of it deterministically.
 */
describe('health while the compose CLI is being looked for', () => {
  let dataDir: string;
  let release: (cli: ComposeCli | null) => void;
  let app: Awaited<ReturnType<typeof buildApp>>['app'];
  let cli: ComposeCli | null;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'berth-test-'));
    const config = loadConfig({
      DATA_DIR: dataDir,
      ADMIN_EMAIL: TEST_ADMIN.username,
      ADMIN_PASSWORD: TEST_ADMIN.password,
      LOG_LEVEL: 'silent',
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      ...(process.env.HOME ? { HOME: process.env.HOME } : {}),
      ...(process.env.DOCKER_HOST ? { DOCKER_HOST: process.env.DOCKER_HOST } : {}),
    });
    cli = await detectComposeCli(config.cliEnv);
    const detection = new Promise<ComposeCli | null>((resolve) => (release = resolve));
    ({ app } = await buildApp(config, { compose: detection }));
    await app.ready();
  });
  afterAll(async () => {
    release(null);
    await app.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('says checking, keeps answering, and lets compose calls wait for the answer', async () => {
    const anon = new TestClient(app);
    const early = await anon.get<Health>('/api/health');
    expect(early.status).toBe(200);
    expect(early.body.status).toBe('checking');
    expect(early.body.compose).toEqual({ found: false, command: null, version: null });
    expect(typeof early.body.engine.reachable).toBe('boolean');

    const client = new TestClient(app);
    await client.login();
    let answered = false;
    const info = client.get<ServerInfo>('/api/settings/info').then((r) => {
      answered = true;
      return r;
    });
    // The call is parked on the detection: a later, unrelated call overtakes it.
    expect((await client.get('/api/auth/me')).status).toBe(200);
    expect(answered).toBe(false);

    release(cli);
    const res = await info;
    expect(res.status).toBe(200);
    expect(res.body.compose).toEqual({
      found: cli !== null,
      command: cli?.argv.join(' ') ?? null,
      version: cli?.version ?? null,
    });
    const later = await anon.get<Health>('/api/health');
    expect(later.body.status).not.toBe('checking');
    expect(later.body.compose.found).toBe(cli !== null);
  });
});

describe('an engine absent from the start', () => {
  const socket = path.join(os.tmpdir(), `berth-absent-${process.pid}.sock`);
  const lines: string[] = [];
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(
      { DOCKER_HOST: `unix://${socket}`, LOG_LEVEL: 'info' },
      {},
      { logStream: { write: (line: string) => void lines.push(line) } },
    );
  });
  afterAll(async () => t?.close());

  it('is logged once at start with its address and reason, named in /api/health, one msg per log line', async () => {
    const health = await t.anon().get<Health>('/api/health');
    expect(health.body.engine.reachable).toBe(false);
    expect(health.body.engine.error).toBe(
      `The Docker engine at unix://${socket} is not reachable (no socket at that path).`,
    );
    // A failed request logs its reason too.
    expect((await t.client.get('/api/apps/')).status).toBe(503);
    await t.anon().get('/api/health');

    const said = lines.filter((l) => l.includes('"msg":"engine at'));
    expect(said).toHaveLength(1);
    expect(JSON.parse(said[0]!)).toMatchObject({
      level: 40,
      msg: `engine at unix://${socket} not reachable: no socket at that path; retrying`,
    });
    const failed = lines.filter((l) => l.includes('request failed'));
    expect(failed.length).toBeGreaterThan(0);
    expect(JSON.parse(failed[0]!).msg).toMatch(/^request failed: The Docker engine is not reachable/);
    for (const line of lines) expect(line.match(/"msg":/g) ?? [], line).toHaveLength(1);
  });
});

describe('a compose CLI slow to answer at start (issue 38 #7)', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'berth-slow-cli-'));
  const slowFlag = path.join(dir, 'slow');
  let t: TestApp;
  beforeAll(async () => {
    // A real, slow docker-compose: the real one behind a wrapper that sleeps on `version` while the flag exists.
    const real = execFileSync('sh', ['-c', 'command -v docker-compose']).toString().trim();
    fs.mkdirSync(path.join(dir, 'bin'));
    fs.writeFileSync(
      path.join(dir, 'bin', 'docker-compose'),
      `#!/bin/sh\nif [ -e '${slowFlag}' ] && [ "$1" = version ]; then sleep 30; fi\nexec '${real}' "$@"\n`,
      { mode: 0o755 },
    );
    fs.writeFileSync(slowFlag, '');
    t = await createTestApp({
      PATH: `${path.join(dir, 'bin')}:${process.env.PATH ?? '/usr/bin:/bin'}`,
      COMPOSE_PROBE_TIMEOUT_SECONDS: '4',
    });
  });
  afterAll(async () => {
    await t?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('tells a timed-out probe from an absent CLI, refuses unchecked saves, and finds the CLI on the next request', async () => {
    expect((await t.anon().get<Health>('/api/health')).body.compose.found).toBe(false);
    expect(t.ctx.composeUnknown).toBe(true);
    const name = `slow-cli-${process.pid}`;
    // The CLI's check refuses this file; saved unchecked it would be accepted.
    const content = 'services:\n  web:\n    image: "${IMAGE:?IMAGE is required}"\n';
    const refused = await t.client.post<ApiError>('/api/compose/', { name, content });
    expect([refused.status, refused.body.code]).toEqual([503, 'compose_unknown']);
    expect(fs.existsSync(path.join(t.ctx.config.composeDir, name))).toBe(false);

    fs.rmSync(slowFlag);
    const checked = await t.client.post<ApiError>('/api/compose/', { name, content });
    expect(checked.status, checked.text).toBe(400);
    expect(checked.text).toContain('IMAGE is required');
    expect(fs.existsSync(path.join(t.ctx.config.composeDir, name, 'compose.yaml'))).toBe(false);
    expect((await t.anon().get<Health>('/api/health')).body.compose.found).toBe(true);
  });
});
