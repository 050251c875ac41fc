import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiError, Health } from '@berth/contract';
import { createTestApp, REAUTH, TEST_ADMIN, type TestApp } from './helpers/app';
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
