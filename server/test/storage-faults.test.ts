import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiError, Health } from '@berth/contract';
import { createTestApp, REAUTH, TEST_ADMIN, type TestApp } from './helpers/app';
import { testEngine } from './helpers/engine';
import { cleanup, exists, uniqueName } from './images-fixtures';

/** Writes zeros into `file` until the file system refuses (ENOSPC), leaving `leave` bytes unwritten at most. */
function fill(file: string, leave = 0): void {
  const fd = fs.openSync(file, 'w');
  const chunk = Buffer.alloc(16 * 1024);
  try {
    for (;;) {
      const s = fs.statfsSync(path.dirname(file));
      if (s.bavail * s.bsize <= leave + chunk.length) break;
      fs.writeSync(fd, chunk);
    }
    if (leave === 0) for (;;) fs.writeSync(fd, Buffer.alloc(512));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
  } finally {
    fs.closeSync(fd);
  }
}

describe('DATA_DIR on a full disk (issue 38 #6)', () => {
  let mount = '';
  let t: TestApp;
  const volumes: string[] = [];

  beforeAll(async () => {
    // A real small file system for DATA_DIR, filled for real (the test runs as root).
    mount = fs.mkdtempSync(path.join(os.tmpdir(), 'berth-full-'));
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=6m,mode=0700', 'tmpfs', mount]);
    t = await createTestApp({ DATA_DIR: mount });
  });
  afterAll(async () => {
    cleanup('volume', ...volumes);
    await t?.close();
    if (mount) {
      execFileSync('umount', [mount]);
      fs.rmdirSync(mount);
    }
  });

  it('answers 507 insufficient_storage naming DATA_DIR, changes nothing, says so in health, and recovers', async () => {
    const filler = path.join(mount, 'filler');
    fill(filler);
    const expectFull = (res: { status: number; body: unknown }, what: string) => {
      expect(res.status, what).toBe(507);
      expect((res.body as ApiError).code, what).toBe('insufficient_storage');
      expect((res.body as ApiError).detail, what).toContain(mount);
    };
    expectFull(await t.anon('10.38.6.1').post('/api/auth/login', TEST_ADMIN), 'sign-in');
    expectFull(await t.client.post('/api/auth/api/keys/new', { key_name: 'full', ...REAUTH }), 'key creation');
    expectFull(await t.client.post('/api/compose/', { name: uniqueName('full'), content: 'services: {}\n' }), 'save');
    const volume = uniqueName('full');
    volumes.push(volume);
    expectFull(await t.client.post('/api/resources/volumes/', { name: volume }), 'volume create');
    expect(exists('volume', volume)).toBe(false);
    const health = await t.anon().get<Health>('/api/health');
    expect(health.status).toBe(200);
    expect(health.body.status).toBe('degraded');
    expect(health.body.storage).toEqual({ full: true, error: expect.stringMatching(/^Disk full: .*DATA_DIR/) });

    fs.rmSync(filler);
    // Free space is re-read at most once a second.
    await new Promise((r) => setTimeout(r, 1100));
    expect((await t.anon().get<Health>('/api/health')).body.storage.full).toBe(false);
    expect((await t.anon('10.38.6.2').post('/api/auth/login', TEST_ADMIN)).status).toBe(200);
  });

  it('maps a write that runs out of room (ENOSPC) to 507 rather than 500', async () => {
    // Room enough to pass the free-space check, not enough for the file.
    const filler = path.join(mount, 'filler');
    fill(filler, 300 * 1024);
    try {
      const content = `services:\n  a:\n    image: 127.0.0.1:5000/none\n${'#'.repeat(450 * 1024)}\n`;
      const res = await t.client.post<ApiError>('/api/compose/', { name: uniqueName('enospc'), content });
      expect(res.status).toBe(507);
      expect(res.body.code).toBe('insufficient_storage');
      expect(res.body.detail).toContain(mount);
    } finally {
      fs.rmSync(filler);
    }
  });
});

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** A second real process holding berth.db's write lock (BEGIN IMMEDIATE) for `ms`; resolves once it holds it. */
async function holdWriteLock(dbFile: string, ms: number): Promise<{ done: Promise<number | null> }> {
  const script = `const D = require('better-sqlite3'); const db = new D(${JSON.stringify(dbFile)});
db.exec('BEGIN IMMEDIATE'); console.log('locked');
setTimeout(() => { db.exec('COMMIT'); db.close(); }, ${ms});`;
  const child = spawn(process.execPath, ['-e', script], {
    cwd: path.join(REPO_ROOT, 'server'),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const done = new Promise<number | null>((resolve) => child.on('exit', resolve));
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => d.toString().includes('locked') && resolve());
    child.on('exit', () => reject(new Error('the lock holder exited before taking the lock')));
  });
  return { done };
}

/** Berth as a real process on `dataDir`; resolves with its output and exit code once it has exited (or is killed). */
function startBerthProcess(dataDir: string) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], {
    cwd: REPO_ROOT,
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: process.env.HOME ?? dataDir,
      HOST: '127.0.0.1',
      PORT: '0',
      DATA_DIR: dataDir,
      WEB_DIST: path.join(dataDir, 'no-web'),
      DOCKER_HOST: testEngine().dockerHost,
      ADMIN_EMAIL: TEST_ADMIN.username,
      ADMIN_PASSWORD: TEST_ADMIN.password,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  return { child, exited, output: () => out };
}

describe('a second writer on DATA_DIR (issue 38 #5)', () => {
  it('refuses to start a second Berth on the same DATA_DIR, with a clear message', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'berth-lock-'));
    const first = startBerthProcess(dataDir);
    try {
      await expect
        .poll(() => /Server listening at/.test(first.output()) || first.child.exitCode !== null, { timeout: 45_000 })
        .toBe(true);
      expect(first.child.exitCode, first.output()).toBeNull();
      const second = startBerthProcess(dataDir);
      const code = await second.exited;
      expect(code).toBe(3);
      expect(second.output()).toContain(`Another Berth is already running on DATA_DIR ${dataDir}`);
      // The first one still serves.
      const base = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(first.output())![1];
      expect((await fetch(`${base}/api/health`)).status).toBe(200);
    } finally {
      // SIGKILL: the lock is the operating system's and goes with the process (no stale lock file).
      first.child.kill('SIGKILL');
      await first.exited;
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('keeps answering while another process holds the write lock, and keeps the audited change and its events', async () => {
    const t2 = await createTestApp();
    const volume = uniqueName('busy');
    try {
      const engineChanges: boolean[] = [];
      const off = t2.ctx.engine.onChange((s) => engineChanges.push(s.reachable));
      const holder = await holdWriteLock(path.join(t2.dataDir, 'berth.db'), 4000);
      const created = await t2.client.post('/api/resources/volumes/', { name: volume });
      expect(created.status, created.text).toBe(200);
      const latencies: number[] = [];
      const until = Date.now() + 3000;
      while (Date.now() < until) {
        const start = Date.now();
        expect((await t2.anon().get<Health>('/api/health')).body.engine.reachable).toBe(true);
        latencies.push(Date.now() - start);
        await new Promise((r) => setTimeout(r, 100));
      }
      // A change that writes the database itself is refused at once, not frozen.
      const busy = await t2.client.post<ApiError>('/api/auth/api/keys/new', { key_name: 'busy', ...REAUTH });
      expect([busy.status, busy.body.code]).toEqual([503, 'database_busy']);
      expect(t2.services.audit.pending).toBeGreaterThan(0);
      await holder.done;
      await expect
        .poll(() => t2.services.audit.list({ target: volume, limit: 10 }).length, { timeout: 10_000 })
        .toBe(1);
      await expect
        .poll(async () => (await t2.client.get<unknown[]>(`/api/events?name=${volume}&action=create`)).body.length, {
          timeout: 10_000,
        })
        .toBe(1);
      off();
      expect(latencies.length).toBeGreaterThan(10);
      expect(Math.max(...latencies)).toBeLessThan(1000);
      expect(engineChanges).toEqual([]);
    } finally {
      cleanup('volume', volume);
      await t2.close();
    }
  });
});
