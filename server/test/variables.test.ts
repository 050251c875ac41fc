import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiError, TemplateVariable } from '@berth/contract';
import { createTestApp, type TestApp } from './helpers/app';

const URL = '/api/settings/variables';

describe('template variables', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('starts with the 16 defaults, paths under /berth/', async () => {
    const res = await t.client.get<TemplateVariable[]>(URL);
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(16);
    expect(res.body[0]).toEqual({ variable: '!config', replacement: '/berth/AppData/Config' });
    expect(res.body).toContainEqual({ variable: '!PUID', replacement: '1000' });
    expect(res.body).toContainEqual({ variable: '!localtime', replacement: '/etc/localtime' });
    expect(res.body.filter((v) => v.replacement.includes('yacht'))).toEqual([]);
  });

  it('replaces the whole list and returns it in the order given', async () => {
    const rows = [
      { variable: '!media', replacement: '/srv/media' },
      { variable: '!config', replacement: '/srv/config' },
    ];
    const saved = await t.client.post<TemplateVariable[]>(URL, rows);
    expect(saved.status).toBe(200);
    expect(saved.body).toEqual(rows);
    expect((await t.client.get<TemplateVariable[]>(URL)).body).toEqual(rows);
  });

  it('refuses duplicates, names without ! and empty fields, naming each, and changes nothing', async () => {
    const before = (await t.client.get<TemplateVariable[]>(URL)).body;
    const dup = await t.client.post<ApiError>(URL, [
      { variable: '!a', replacement: '1' },
      { variable: '!a', replacement: '2' },
    ]);
    expect(dup.status).toBe(400);
    expect(dup.body.fields).toEqual([{ field: '1.variable', message: 'Duplicate variable !a.' }]);

    const bad = await t.client.post<ApiError>(URL, [
      { variable: 'config', replacement: '/x' },
      { variable: '!ok', replacement: '' },
      { variable: '!ok2' },
    ]);
    expect(bad.status).toBe(400);
    expect(bad.body.fields?.map((f) => f.field)).toEqual(['0.variable', '1.replacement', '2.replacement']);
    expect(bad.body.detail).toContain('Variable must start with !');
    expect(bad.body.detail).toContain('Replacement is required.');

    const unknownKey = await t.client.post<ApiError>(URL, [{ variable: '!a', replacement: '1', extra: true }]);
    expect(unknownKey.status).toBe(400);
    expect((await t.client.get<TemplateVariable[]>(URL)).body).toEqual(before);
  });

  it('needs a signed-in user', async () => {
    expect((await t.anon().get(URL)).status).toBe(401);
    expect((await t.anon().post(URL, [])).status).toBe(401);
  });
});

describe('template variables across restarts', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'berth-test-vars-'));
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('keeps an emptied list empty after a restart (the defaults are seeded only once)', async () => {
    const first = await createTestApp({ DATA_DIR: dataDir });
    try {
      expect((await first.client.post<TemplateVariable[]>(URL, [])).body).toEqual([]);
    } finally {
      await first.close();
    }
    const second = await createTestApp({ DATA_DIR: dataDir });
    try {
      const res = await second.client.get<TemplateVariable[]>(URL);
      expect(res.status).toBe(200);
      expect(res.body).toEqual([]);
    } finally {
      await second.close();
    }
  });
});
