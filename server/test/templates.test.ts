import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiError, Template, TemplateDetail, TemplateItem, TemplateWriteResult } from '@berth/contract';
import { createTestApp, type TestApp } from './helpers/app';
import { dockerCli, testEngine } from './helpers/engine';
import { json, startCatalogueServer, type CatalogueServer } from './templates-fixtures';

const API = '/api/templates/';

const portainerV1 = [
  {
    type: 1,
    title: 'Nginx',
    description: 'Web server',
    image: 'nginx:latest',
    ports: ['8080:80/tcp', '443/tcp'],
    categories: ['web'],
    platform: 'linux',
  },
  { type: 1, title: 'Broken ports', image: 'busybox', ports: ['8080:80/sctpx'] },
  {
    type: 1,
    title: 'Redis',
    image: 'redis:7',
    command: 'redis-server --appendonly yes',
    volumes: [{ container: '/data', bind: '/srv/redis' }],
  },
];
const portainerV2 = {
  version: '2',
  templates: [
    {
      type: 1,
      title: 'Postgres',
      image: 'postgres:16',
      env: [{ name: 'POSTGRES_PASSWORD', label: 'Password' }],
      ports: ['5432/tcp'],
    },
    { type: 3, title: 'A stack', repository: { url: 'https://example.test/repo', stackfile: 'stack.yml' } },
  ],
};
const portainerV3Yaml = `version: "3"
templates:
  - type: 1
    title: Traefik
    image: traefik:v3
    ports: ["80:80/tcp", "8081:8080/tcp"]
    labels:
      - name: traefik.enable
        value: "true"
`;
const originalYaml = `- type: 1
  title: Handbrake
  platform: linux
  image: jlesage/handbrake:latest
  restart_policy: unless-stopped
  ports:
    - WebUI: 5800:5800/tcp
      VNC: 5900:5900/tcp
  volumes:
    - container: /config
      bind: "!config/handbrake"
  env:
    - name: PUID
      label: PUID
      default: "!PUID"
  sysctls:
    - net.ipv4.ip_forward: "1"
  cap_add: [NET_ADMIN]
  cpus: 1.5
  mem_limit: 512m
- title: No image here
`;

describe('templates', () => {
  let t: TestApp;
  let cat: CatalogueServer;
  let n = 0;
  const title = (what: string) => `${what} ${++n} ${Date.now()}`;
  /** Serves `route` at a path of its own (URLs are unique per template) and returns its URL. */
  const serve = (route: Parameters<CatalogueServer['routes']['set']>[1], ext = 'json') => {
    const path = `/c${++n}.${ext}`;
    cat.routes.set(path, route);
    return `${cat.base}${path}`;
  };

  beforeAll(async () => {
    cat = await startCatalogueServer();
    t = await createTestApp({ TEMPLATE_FETCH_ALLOW_LOOPBACK: 'true', TEMPLATE_FETCH_TIMEOUT_SECONDS: '2' });
  });
  afterAll(async () => {
    await t?.close();
    await cat?.close();
  });

  const create = (body: object) => t.client.post<TemplateWriteResult & ApiError>(API, body);
  const count = async () => (await t.client.get<Template[]>(API)).body.length;

  it('imports a Portainer v1 list, reporting and skipping a broken item', async () => {
    const url = serve(json(portainerV1));
    const res = await create({ title: title('V1'), url });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ url, item_count: 2 });
    expect(res.body.skipped).toEqual([
      { index: 1, title: 'Broken ports', reason: expect.stringContaining("port '8080:80/sctpx'") },
    ]);

    const detail = await t.client.get<TemplateDetail>(`${API}${res.body.id}`);
    expect(detail.status).toBe(200);
    expect(detail.body.items.map((i) => i.title)).toEqual(['Nginx', 'Redis']);
    expect(detail.body.items[0]).toMatchObject({
      name: 'nginx',
      ports: [
        { label: null, hport: '8080', cport: '80', proto: 'tcp' },
        { label: null, hport: null, cport: '443', proto: 'tcp' },
      ],
      categories: ['web'],
    });
    expect(detail.body.items[1]).toMatchObject({
      command: ['redis-server', '--appendonly', 'yes'],
      volumes: [{ bind: '/srv/redis', container: '/data' }],
    });

    const item = await t.client.get<TemplateItem>(`${API}app/${detail.body.items[1]!.id}`);
    expect(item.status).toBe(200);
    expect(item.body).toEqual(detail.body.items[1]);
  });

  it('makes a stack template into a compose project with its values filled in, and refuses a container template', async () => {
    const stackPath = `/stack${++n}/docker-compose.yml`;
    cat.routes.set(
      stackPath,
      json(
        'services:\n  web:\n    image: ${IMAGE:-busybox}\n    command: ["sh", "-c", "echo $GREETING $$HOME"]\n    labels:\n      dir: "!appdata"\n',
        'text/plain',
      ),
    );
    const catalogue = [
      {
        type: 'stack',
        title: 'Greeter',
        repository: { url: `${cat.base}/${stackPath.split('/')[1]}`, stackfile: 'docker-compose.yml' },
        env: [
          { name: 'GREETING', default: 'hi' },
          { name: 'IMAGE', default: 'busybox:1' },
        ],
      },
      { type: 'container', title: 'Plain', image: 'busybox' },
    ];
    const created = await create({ title: title('Stacks'), url: serve(json(catalogue)) });
    expect(created.status).toBe(200);
    const [stack, plain] = (await t.client.get<TemplateDetail>(`${API}${created.body.id}`)).body.items;
    await t.client.post('/api/settings/variables', [{ variable: '!appdata', replacement: '/srv/appdata' }]);
    const name = `stack-${Date.now().toString(36)}`;

    const res = await t.client.post<{ name: string; content: string }>('/api/compose/from-template', {
      item_id: stack!.id,
      name,
      env: { GREETING: 'hello' },
    });
    expect(res.status).toBe(200);
    expect(res.body.content).toContain('image: busybox:1');
    expect(res.body.content).toContain('echo hello $$HOME');
    expect(res.body.content).toContain('dir: "/srv/appdata"');
    expect((await t.client.get<{ content: string }>(`/api/compose/${name}`)).body.content).toBe(res.body.content);

    const refused = await t.client.post<ApiError>('/api/compose/from-template', {
      item_id: plain!.id,
      name: `${name}-2`,
    });
    expect(refused.status).toBe(400);
    expect(refused.body.detail).toContain('container template');
    expect((await t.client.get(`/api/compose/${name}-2`)).status).toBe(404);
  });

  it('keeps $, ${...} and $$ in a stack value exactly, and names a blank variable the file needs (issue 39 #10, #36)', async () => {
    const stackPath = `/stack${++n}/docker-compose.yml`;
    cat.routes.set(
      stackPath,
      json(
        `services:\n  app:\n    image: ${testEngine().image}\n    command: ["sleep", "3600"]\n    labels:\n      berth.test: "1"\n    environment:\n      - SECRET=\${SECRET}\n    ports:\n      - "\${PORT}:80"\n`,
        'text/plain',
      ),
    );
    const catalogue = [
      {
        type: 3,
        title: 'Secretive',
        repository: { url: `${cat.base}/${stackPath.split('/')[1]}`, stackfile: 'docker-compose.yml' },
        env: [{ name: 'SECRET' }, { name: 'PORT' }],
      },
    ];
    const created = await create({ title: title('Dollars'), url: serve(json(catalogue)) });
    const [stack] = (await t.client.get<TemplateDetail>(`${API}${created.body.id}`)).body.items;
    const name = `dollar-${Date.now().toString(36)}`;

    const blank = await t.client.post<ApiError>('/api/compose/from-template', {
      item_id: stack!.id,
      name,
      env: { SECRET: 'x', PORT: '' },
    });
    expect(blank.status).toBe(400);
    expect(blank.body.detail).toMatch(/^The stack template's variable PORT was left empty, and the file uses it: /);
    expect((await t.client.get(`/api/compose/${name}`)).status).toBe(404);

    const secret = 'pa$word p@ss${HOME}x a$$b $';
    const res = await t.client.post<{ content: string }>('/api/compose/from-template', {
      item_id: stack!.id,
      name,
      // A random host port on loopback: nothing is sent to it.
      env: { SECRET: secret, PORT: '127.0.0.1:0' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    try {
      const up = await t.client.post(`/api/compose/${name}/actions/up`);
      expect(up.status, up.text).toBe(200);
      const id = dockerCli(['ps', '-q', '--filter', `label=com.docker.compose.project=${name}`]).trim();
      const env = JSON.parse(dockerCli(['inspect', '--format', '{{json .Config.Env}}', id])) as string[];
      expect(env).toContain(`SECRET=${secret}`);
    } finally {
      await t.client.post(`/api/compose/${name}/actions/delete`);
    }
  });

  it('imports Portainer v2 JSON and v3 YAML objects', async () => {
    const v2 = await create({ title: title('V2'), url: serve(json(portainerV2)) });
    expect(v2.status).toBe(200);
    expect(v2.body.skipped).toEqual([]);
    const v2items = (await t.client.get<TemplateDetail>(`${API}${v2.body.id}`)).body.items;
    expect(v2items[0]).toMatchObject({
      title: 'Postgres',
      env: [{ name: 'POSTGRES_PASSWORD', label: 'Password', default: '' }],
      stack: null,
    });
    expect(v2items[1]).toMatchObject({
      title: 'A stack',
      type: 3,
      image: '',
      stack: { kind: 'compose', url: 'https://example.test/repo/stack.yml' },
    });

    const v3 = await create({ title: title('V3'), url: serve(json(portainerV3Yaml, 'application/x-yaml'), 'yml') });
    expect(v3.status).toBe(200);
    const v3items = (await t.client.get<TemplateDetail>(`${API}${v3.body.id}`)).body.items;
    expect(v3items[0]).toMatchObject({
      title: 'Traefik',
      labels: [{ label: 'traefik.enable', value: 'true' }],
      ports: [{ hport: '80' }, { hport: '8081', cport: '8080' }],
    });
  });

  it("imports the original product's YAML with labelled ports, variables, sysctls and limits", async () => {
    const res = await create({ title: title('Original'), url: serve(json(originalYaml, 'text/plain'), 'yaml') });
    expect(res.status).toBe(200);
    expect(res.body.skipped).toEqual([{ index: 1, title: 'No image here', reason: 'image is missing' }]);
    const [item] = (await t.client.get<TemplateDetail>(`${API}${res.body.id}`)).body.items;
    expect(item).toMatchObject({
      ports: [
        { label: 'WebUI', hport: '5800', cport: '5800', proto: 'tcp' },
        { label: 'VNC', hport: '5900', cport: '5900', proto: 'tcp' },
      ],
      // Stored raw: variables are substituted only at deploy time.
      volumes: [{ bind: '!config/handbrake', container: '/config' }],
      env: [{ name: 'PUID', label: 'PUID', default: '!PUID' }],
      sysctls: [{ name: 'net.ipv4.ip_forward', value: '1' }],
      cap_add: ['NET_ADMIN'],
      cpus: 1.5,
      mem_limit: '512m',
    });
  });

  it('refuses a duplicate URL or title with 409', async () => {
    const url = serve(json(portainerV1));
    const first = title('Dup');
    expect((await create({ title: first, url })).status).toBe(200);
    const before = await count();
    const sameUrl = await create({ title: title('Other'), url });
    expect(sameUrl.status).toBe(409);
    expect(sameUrl.body.detail).toMatch(/URL already exists/);
    const sameTitle = await create({ title: `  ${first.toUpperCase()} `, url: serve(json(portainerV1)) });
    expect(sameTitle.status).toBe(409);
    expect(sameTitle.body.detail).toMatch(/already exists/);
    expect(await count()).toBe(before);
  });

  it('checks title and URL with the spec messages before fetching anything', async () => {
    const before = cat.connections();
    const cases: [object, string, string][] = [
      [{ title: ' a ', url: `${cat.base}/x.json` }, 'title', 'Length between 2 and 255 Characters.'],
      [{ title: 'x'.repeat(256), url: `${cat.base}/x.json` }, 'title', 'Length between 2 and 255 Characters.'],
      [{ url: `${cat.base}/x.json` }, 'title', 'Required.'],
      [{ title: 'Good title' }, 'url', 'Required.'],
      [{ title: 'Good title', url: cat.base }, 'url', 'Invalid URL'],
      [{ title: 'Good title', url: 'ftp://example.test/x.json' }, 'url', 'Invalid URL'],
      [{ title: 'Good title', url: 'file:///etc/passwd' }, 'url', 'Invalid URL'],
      [{ title: 'Good title', url: 'http://user:pw@example.test/x.json' }, 'url', 'Invalid URL'],
      [{ title: 'Good title', url: 'not a url' }, 'url', 'Invalid URL'],
    ];
    for (const [body, field, message] of cases) {
      const res = await create(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.fields).toContainEqual({ field, message });
    }
    expect(cat.connections()).toBe(before);
  });

  it('reports an upstream 404 as a bad gateway without echoing its body, and stores nothing', async () => {
    const before = await count();
    const res = await create({ title: title('Missing'), url: `${cat.base}/missing.json` });
    expect(res.status).toBe(502);
    expect(res.body.code).toBe('upstream_error');
    expect(res.body.detail).toMatch(/HTTP 404/);
    expect(res.text).not.toContain('internal-secret');
    expect(await count()).toBe(before);
  });

  it('gives up on a server that never answers within the configured timeout', async () => {
    const url = serve(() => {
      // never answers
    });
    const started = Date.now();
    const res = await create({ title: title('Slow'), url });
    const elapsed = Date.now() - started;
    expect(res.status).toBe(504);
    expect(res.body.detail).toMatch(/within 2 s/);
    expect(elapsed).toBeGreaterThanOrEqual(1900);
    expect(elapsed).toBeLessThan(6000);
  });

  it('aborts an oversized body at the cap, also when it is streamed without a length', async () => {
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    let written = 0;
    const url = serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('[');
      const pump = () => {
        while (written < 50 * 1024 * 1024 && !res.destroyed) {
          written += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end(']');
      };
      pump();
    });
    const res = await create({ title: title('Big'), url });
    expect(res.status).toBe(422);
    expect(res.body.detail).toMatch(/larger than 5 MiB/);
    expect(written).toBeLessThan(20 * 1024 * 1024);
  });

  it('follows a redirect on an allowed host but refuses one to the metadata address', async () => {
    const target = new URL(serve(json(portainerV1))).pathname;
    const moved = await create({
      title: title('Moved'),
      url: serve((_req, res) => res.writeHead(302, { location: target }).end()),
    });
    expect(moved.status).toBe(200);
    expect(moved.body.item_count).toBe(2);

    const metaRedirect = serve((_req, res) =>
      res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end(),
    );
    const meta = await create({ title: title('Meta'), url: metaRedirect });
    expect(meta.status).toBe(400);
    expect(meta.body.code).toBe('blocked_address');
    expect(meta.body.detail).toMatch(/169\.254\.169\.254.*link-local/);

    cat.routes.set('/loop.json', (_req, res) => res.writeHead(302, { location: '/loop.json' }).end());
    const loop = await create({ title: title('Loop'), url: `${cat.base}/loop.json` });
    expect(loop.status).toBe(502);
    expect(loop.body.detail).toMatch(/More than 3 redirects/);
    expect(cat.hits.get('/loop.json')).toBe(4);
  });

  it('reports an HTML page or a body that is not JSON/YAML as an invalid catalogue', async () => {
    const urls = [
      serve(json('<html>internal-secret</html>', 'text/html')),
      serve(json('{"internal-secret": [1, 2', 'application/json')),
    ];
    for (const url of urls) {
      const res = await create({ title: title('Junk'), url });
      expect(res.status, url).toBe(422);
      expect(res.body.code).toBe('invalid_catalogue');
      expect(res.text).not.toContain('internal-secret');
    }
  });

  it('refresh keeps the ids of unchanged items, drops removed ones and adds new ones', async () => {
    let doc: object[] = portainerV1;
    const created = await create({ title: title('Live'), url: serve((req, res) => json(doc)(req, res)) });
    const before = (await t.client.get<TemplateDetail>(`${API}${created.body.id}`)).body;
    const [nginx, redis] = before.items;

    doc = [
      { ...portainerV1[0], description: 'Changed text' },
      { type: 1, title: 'Caddy', image: 'caddy:2' },
    ];
    await new Promise((r) => setTimeout(r, 5));
    const refreshed = await t.client.get<TemplateWriteResult>(`${API}${created.body.id}/refresh`);
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.updated_at > before.updated_at).toBe(true);
    expect(refreshed.body.skipped).toEqual([]);

    const after = (await t.client.get<TemplateDetail>(`${API}${created.body.id}`)).body;
    expect(after.items.map((i) => i.title)).toEqual(['Nginx', 'Caddy']);
    expect(after.items[0]).toMatchObject({ id: nginx!.id, description: 'Changed text' });
    expect(after.items[1]!.id).not.toBe(redis!.id);
    expect((await t.client.get(`${API}app/${redis!.id}`)).status).toBe(404);
  });

  it('refresh needs the CSRF header, like any state change', async () => {
    const created = await create({ title: title('Csrf'), url: serve(json(portainerV1)) });
    expect(created.status).toBe(200);
    const res = await t.client.get<ApiError>(`${API}${created.body.id}/refresh`, { 'x-csrf-token': 'wrong' });
    expect(res.body.code).toBe('csrf_failed');
  });

  it('a failed refresh keeps the items as they were', async () => {
    const url = serve(json(portainerV1));
    const created = await create({ title: title('Flaky'), url });
    const before = (await t.client.get<TemplateDetail>(`${API}${created.body.id}`)).body;
    cat.routes.delete(new URL(url).pathname);
    const res = await t.client.post<ApiError>(`${API}${created.body.id}/refresh`);
    expect(res.status).toBe(502);
    expect((await t.client.get<TemplateDetail>(`${API}${created.body.id}`)).body).toEqual(before);
  });

  it('deletes a template with its items and answers 404 for it afterwards', async () => {
    const created = await create({ title: title('Doomed'), url: serve(json(portainerV1)) });
    expect(created.status).toBe(200);
    const items = (await t.client.get<TemplateDetail>(`${API}${created.body.id}`)).body.items;
    const removed = await t.client.delete<Template>(`${API}${created.body.id}`);
    expect(removed.status).toBe(200);
    expect(removed.body).toMatchObject({ id: created.body.id, title: created.body.title });
    expect((await t.client.get<ApiError>(`${API}${created.body.id}`)).status).toBe(404);
    expect((await t.client.get<ApiError>(`${API}app/${items[0]!.id}`)).status).toBe(404);
    expect((await t.client.delete<ApiError>(`${API}${created.body.id}`)).status).toBe(404);
    expect((await t.client.get<ApiError>(`${API}${created.body.id}/refresh`)).status).toBe(404);
  });

  it('answers 400 for an id that is not a number and 404 with detail for an unknown one', async () => {
    expect((await t.client.get<ApiError>(`${API}abc`)).status).toBe(400);
    const res = await t.client.get<ApiError>(`${API}999999`);
    expect(res.status).toBe(404);
    expect(res.body.detail).toBe('No such template: 999999');
  });
});

describe('template URLs without the loopback allowance', () => {
  let t: TestApp;
  let cat: CatalogueServer;

  beforeAll(async () => {
    cat = await startCatalogueServer();
    cat.routes.set('/v1.json', json(portainerV1));
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
    await cat?.close();
  });

  it('refuses loopback addresses, by number or by name, without connecting', async () => {
    for (const host of ['127.0.0.1', 'localhost', '127.1', '[::ffff:127.0.0.1]']) {
      const res = await t.client.post<ApiError>(API, {
        title: `Loop ${host}`,
        url: `http://${host}:${cat.port}/v1.json`,
      });
      expect(res.status, host).toBe(400);
      expect(res.body.code).toBe('blocked_address');
      expect(res.body.detail).toMatch(/loopback/);
    }
    expect(cat.connections()).toBe(0);
    expect((await t.client.get<Template[]>(API)).body).toEqual([]);
  });
});
