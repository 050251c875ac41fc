import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  ApiError,
  ImportResult,
  SelfUpdateCheck,
  ServerInfo,
  SettingsFile,
  Template,
  TemplateDetail,
  TemplateVariable,
} from '@berth/contract';
import { createTestApp, REAUTH, TEST_ADMIN, type TestApp, type TestClient } from './helpers/app';
import { json, startCatalogueServer, type CatalogueServer } from './templates-fixtures';

const EXPORT = '/api/settings/export';

/**
 * A multipart/form-data body with the current password (re-authentication, issue 22.5) and one
 * file part, as a browser's FormData sends it.
 */
export function multipart(
  content: Buffer | string,
  opts: { field?: string; filename?: string; currentPassword?: string } = {},
) {
  const boundary = `----berth${randomBytes(8).toString('hex')}`;
  const password = `--${boundary}\r\nContent-Disposition: form-data; name="current_password"\r\n\r\n${opts.currentPassword ?? TEST_ADMIN.password}\r\n`;
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="${opts.field ?? 'upload'}"; filename="${opts.filename ?? 'berth-settings.json'}"\r\nContent-Type: application/json\r\n\r\n`;
  const body = Buffer.concat([
    Buffer.from(password + head),
    Buffer.from(content),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { body, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

export function upload(
  client: TestClient,
  content: Buffer | string,
  opts: { field?: string; filename?: string; currentPassword?: string } = {},
) {
  const { body, headers } = multipart(content, opts);
  return client.request<ImportResult | ApiError>('POST', EXPORT, body, headers);
}

/** The export without its timestamp of export, to compare two exports. */
async function snapshot(client: TestClient): Promise<Omit<SettingsFile, 'exported_at'>> {
  const res = await client.get<SettingsFile>(EXPORT);
  expect(res.status).toBe(200);
  const { exported_at: _at, ...rest } = res.body;
  return rest;
}

describe('settings export and import', () => {
  let t: TestApp;
  let cat: CatalogueServer;
  const tag = randomBytes(3).toString('hex');

  beforeAll(async () => {
    t = await createTestApp({ TEMPLATE_FETCH_ALLOW_LOOPBACK: 'true' });
    cat = await startCatalogueServer();
    cat.routes.set(
      '/one.json',
      json([
        {
          type: 1,
          title: 'Nginx',
          description: 'Web server',
          image: 'nginx:latest',
          ports: ['8080:80/tcp'],
          env: [{ name: 'A', label: 'A', default: '!config' }],
        },
        {
          type: 1,
          title: 'Redis',
          image: 'redis:7',
          command: 'redis-server --appendonly yes',
          volumes: [{ container: '/data', bind: '!data/redis' }],
        },
      ]),
    );
    cat.routes.set(
      '/two.json',
      json({
        version: '2',
        templates: [
          {
            type: 1,
            title: 'Postgres',
            image: 'postgres:16',
            ports: ['5432/tcp'],
            labels: [{ name: 'a', value: 'b' }],
          },
        ],
      }),
    );
    cat.routes.set('/three.json', json([{ type: 1, title: 'Busybox', image: 'busybox' }]));
  });
  afterAll(async () => {
    await cat?.close();
    await t?.close();
  });

  const addTemplate = async (title: string, path: string) => {
    const res = await t.client.post<Template>('/api/templates/', { title, url: `${cat.base}${path}` });
    expect(res.status, res.text).toBe(200);
    return res.body;
  };

  it('exports templates with their items and the variables as a berth-settings.json download, without users or keys', async () => {
    await addTemplate(`Export ${tag}`, '/one.json');
    const res = await t.client.get<SettingsFile>(EXPORT);
    expect(res.status).toBe(200);
    expect(res.headers['content-disposition']).toBe('attachment; filename="berth-settings.json"');
    expect(Object.keys(res.body).sort()).toEqual(['exported_at', 'format', 'templates', 'variables', 'version']);
    expect(res.body).toMatchObject({ format: 'berth-settings', version: 1 });
    const exported = res.body.templates.find((x) => x.title === `Export ${tag}`)!;
    expect(exported.items.map((i) => i.title)).toEqual(['Nginx', 'Redis']);
    expect(exported.items[1]).toMatchObject({ image: 'redis:7', command: ['redis-server', '--appendonly', 'yes'] });
    expect(res.body.variables).toContainEqual({ variable: '!config', replacement: '/berth/AppData/Config' });
    expect(res.text).not.toContain(TEST_ADMIN.username);
    expect(res.text).not.toMatch(/argon2|password|api_key|secret/i);
  });

  it('round-trips templates and variables exactly: export, change everything, import, export again', async () => {
    await addTemplate(`Round ${tag}`, '/two.json');
    await t.client.post('/api/settings/variables', [
      { variable: '!config', replacement: '/srv/config' },
      { variable: '!media', replacement: '/srv/media' },
    ]);
    const before = await t.client.get<SettingsFile>(EXPORT);
    const original = await snapshot(t.client);
    expect(original.templates.length).toBeGreaterThanOrEqual(2);

    // Change everything the file holds.
    for (const tpl of (await t.client.get<Template[]>('/api/templates/')).body)
      await t.client.delete(`/api/templates/${tpl.id}`);
    await addTemplate(`Other ${tag}`, '/three.json');
    await t.client.post('/api/settings/variables', [{ variable: '!other', replacement: '/x' }]);
    expect(await snapshot(t.client)).not.toEqual(original);

    const res = await upload(t.client, before.text);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({
      success: 'Import Successful',
      templates: original.templates.length,
      items: 3,
      variables: 2,
    });
    expect(await snapshot(t.client)).toEqual(original);

    // The imported sources are real sources again: listed, with items that can be opened.
    const list = (await t.client.get<Template[]>('/api/templates/')).body;
    expect(list.map((x) => x.title).sort()).toEqual(original.templates.map((x) => x.title).sort());
    const round = list.find((x) => x.title === `Round ${tag}`)!;
    const detail = (await t.client.get<TemplateDetail>(`/api/templates/${round.id}`)).body;
    expect(detail.items[0]).toMatchObject({
      title: 'Postgres',
      image: 'postgres:16',
      labels: [{ label: 'a', value: 'b' }],
    });
    expect((await t.client.get<TemplateVariable[]>('/api/settings/variables')).body).toEqual(original.variables);
  });

  describe('refuses a bad file with a clear 4xx and changes nothing', () => {
    let good: SettingsFile;
    let before: Omit<SettingsFile, 'exported_at'>;
    beforeAll(async () => {
      good = (await t.client.get<SettingsFile>(EXPORT)).body;
      before = await snapshot(t.client);
      expect(before.templates.length).toBeGreaterThan(0);
    });
    const withTemplates = (templates: unknown) => JSON.stringify({ ...good, templates });

    const cases: [string, () => string | Buffer, number, RegExp, string?][] = [
      ['not JSON', () => '{"format": "berth-settings", "version": 1,', 400, /not valid JSON/],
      ['a byte-order mark before the JSON', () => `\uFEFF${JSON.stringify(good)}`, 400, /not valid JSON/],
      ['a JSON array', () => JSON.stringify([good]), 422, /must be a JSON object/],
      ['another format', () => JSON.stringify({ ...good, format: 'yacht' }), 422, /format: Must be "berth-settings"/],
      ['an unknown version', () => JSON.stringify({ ...good, version: 2 }), 422, /version: Unsupported version/],
      ['a missing section', () => JSON.stringify({ ...good, variables: undefined }), 422, /variables/],
      [
        'an unknown section (users)',
        () => JSON.stringify({ ...good, users: [{ username: 'x', password: 'y' }] }),
        422,
        /users/,
      ],
      [
        'a wrong type deep inside',
        () => withTemplates([{ ...good.templates[0]!, items: [{ ...good.templates[0]!.items[0]!, ports: 'all' }] }]),
        422,
        /templates\.0\.items\.0\.ports/,
      ],
      [
        'a bad variable name',
        () => JSON.stringify({ ...good, variables: [{ variable: 'config', replacement: '/x' }] }),
        422,
        /variables\.0\.variable/,
      ],
      [
        'duplicate template titles',
        () => withTemplates([good.templates[0], { ...good.templates[0], url: `${cat.base}/dup.json` }]),
        422,
        /Duplicate template title/,
      ],
      [
        'a __proto__ key',
        () => JSON.stringify(good).replace('{"format"', '{"__proto__":{"isAdmin":true},"format"'),
        400,
        /"__proto__"/,
      ],
      [
        'a nested __proto__ key',
        () =>
          withTemplates([{ ...good.templates[0], items: [JSON.parse(`{"__proto__":{"polluted":1},"title":"x"}`)] }]),
        400,
        /"__proto__"/,
      ],
      [
        'a constructor.prototype key',
        () => JSON.stringify({ ...good, constructor: { prototype: { isAdmin: true } } }),
        400,
        /"(constructor|prototype)"/,
      ],
      ['a file over 5 MiB', () => Buffer.alloc(5 * 1024 * 1024 + 10, 0x20), 413, /larger than 5 MiB/],
      ['no field "upload"', () => JSON.stringify(good), 400, /field "upload"/, 'file'],
    ];

    it.each(cases)('%s', async (_what, content, status, detail, field) => {
      const res = await upload(t.client, content(), field ? { field } : {});
      expect(res.status, res.text).toBe(status);
      expect((res.body as ApiError).detail).toMatch(detail);
      expect(await snapshot(t.client)).toEqual(before);
      expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    });

    it('a JSON body instead of a multipart upload', async () => {
      const res = await t.client.post<ApiError>(EXPORT, good);
      expect(res.status).toBe(400);
      expect(res.body.detail).toMatch(/multipart\/form-data in the field "upload"/);
      expect(await snapshot(t.client)).toEqual(before);
    });

    // Issue 22.12: malformed multipart bodies are a clear 4xx, never a 500, and change nothing.
    const rawImport = (body: string | Buffer, contentType: string) =>
      t.client.request<ApiError>('POST', EXPORT, body, { 'content-type': contentType });
    const B = 'berthboundary42';
    const pw = `--${B}\r\nContent-Disposition: form-data; name="current_password"\r\n\r\n${TEST_ADMIN.password}\r\n`;
    const malformed: [string, () => Promise<{ status: number; body: unknown; text: string }>, RegExp][] = [
      [
        'no file part at all',
        () => rawImport(`${pw}--${B}--\r\n`, `multipart/form-data; boundary=${B}`),
        /Choose a settings file/,
      ],
      [
        'a file under another field name',
        () => upload(t.client, JSON.stringify(good), { field: 'settings' }),
        /field "upload"/,
      ],
      ['an empty file', () => upload(t.client, ''), /./],
      [
        'a multipart body cut off mid-file',
        () =>
          rawImport(
            `${pw}--${B}\r\nContent-Disposition: form-data; name="upload"; filename="s.json"\r\nContent-Type: application/json\r\n\r\n{"format":"berth-se`,
            `multipart/form-data; boundary=${B}`,
          ),
        /not valid multipart|Choose a settings file/,
      ],
      ['a multipart content type without a boundary', () => rawImport('whatever', 'multipart/form-data'), /./],
      ['a non-multipart content type (text/plain)', () => rawImport(JSON.stringify(good), 'text/plain'), /./],
    ];
    it.each(malformed)('a malformed import: %s', async (_what, send, detail) => {
      const res = await send();
      expect(res.status, res.text).toBeGreaterThanOrEqual(400);
      expect(res.status, res.text).toBeLessThan(500);
      expect((res.body as ApiError).detail).toMatch(detail);
      expect(await snapshot(t.client)).toEqual(before);
    });

    it('an import without, or with a wrong, current password', async () => {
      for (const currentPassword of ['', 'not-the-password']) {
        const res = await upload(t.client, JSON.stringify(good), { currentPassword });
        expect(res.status).toBe(403);
        expect((res.body as ApiError).code).toBe('reauth_failed');
      }
      expect(await snapshot(t.client)).toEqual(before);
    });

    it('an import without the CSRF header', async () => {
      t.client.sendCsrf = false;
      try {
        const res = await upload(t.client, JSON.stringify(good));
        expect(res.status).toBe(401);
        expect((res.body as ApiError).code).toBe('csrf_failed');
      } finally {
        t.client.sendCsrf = true;
      }
      expect(await snapshot(t.client)).toEqual(before);
    });
  });

  it('answers 401 to an export or import without a session', async () => {
    expect((await t.anon().get(EXPORT)).status).toBe(401);
    expect((await upload(t.anon(), '{}')).status).toBe(401);
  });
});

describe('server info and the update check outside a container', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ HOSTNAME: `berth-t-settings-no-such-${randomBytes(3).toString('hex')}` });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('reports the version, engine, compose CLI, folders and auth mode', async () => {
    const res = await t.client.get<ServerInfo>('/api/settings/info');
    expect(res.status).toBe(200);
    expect(res.body.version).toBe(t.ctx.version);
    expect(res.body.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(res.body.engine.reachable).toBe(true);
    expect(res.body.engine.version).toMatch(/^\d+\.\d+/);
    expect(res.body.engine.apiVersion).toMatch(/^\d+\.\d+$/);
    expect(res.body.compose).toEqual({
      found: t.ctx.compose !== null,
      command: t.ctx.compose?.argv.join(' ') ?? null,
      version: t.ctx.compose?.version ?? null,
    });
    expect(res.body.dataDir).toBe(t.dataDir);
    expect(res.body.composeDir).toBe(t.ctx.config.composeDir);
    expect(res.body.authDisabled).toBe(false);
  });

  it('says no update is possible, and why, when Berth is not in a container', async () => {
    const plain = await t.client.get<boolean>('/api/settings/check/update');
    expect(plain.status).toBe(200);
    expect(plain.body).toBe(false);
    const res = await t.client.get<SelfUpdateCheck>('/api/settings/update/status');
    expect(res.status).toBe(200);
    expect(res.body.updatable).toBe(false);
    expect(res.body.reason).toMatch(/^Berth is not running in a container/);
    expect(res.body).toMatchObject({ container: null, image: null, lastUpdate: null });
  });

  // Changed on purpose (issue 22.5): a self-update needs current_password in the body, so the
  // body-less GET alias is now refused with reauth_failed before the container check.
  it('refuses to self-update outside a container; without the current password first', async () => {
    const res = await t.client.post<ApiError>('/api/settings/update', REAUTH);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('not_in_container');
    expect(res.body.detail).toMatch(/Berth is not running in a container/);
    for (const [method, body] of [
      ['GET', undefined],
      ['POST', {}],
      ['POST', { current_password: 'wrong-password' }],
    ] as const) {
      const refused = await t.client.request<ApiError>(method, '/api/settings/update', body);
      expect(refused.status, `${method} ${JSON.stringify(body)}`).toBe(403);
      expect(refused.body.code).toBe('reauth_failed');
    }
  });

  it('needs the CSRF header for a self-update, GET included', async () => {
    t.client.sendCsrf = false;
    try {
      const res = await t.client.get<ApiError>('/api/settings/update');
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('csrf_failed');
    } finally {
      t.client.sendCsrf = true;
    }
  });

  it('shows authentication as disabled when it is', async () => {
    const off = await createTestApp({ DISABLE_AUTH: 'true' }, { signIn: false });
    try {
      const res = await off.anon().get<ServerInfo>('/api/settings/info');
      expect(res.status).toBe(200);
      expect(res.body.authDisabled).toBe(true);
    } finally {
      await off.close();
    }
  });
});
