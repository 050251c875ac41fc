import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Project } from '@berth/contract';
import { createTestApp, REAUTH, type TestApp } from './helpers/app';
import { testEngine } from './helpers/engine';
import { cleanupProject, projectName, twoServiceYaml } from './helpers/compose-projects';

let t: TestApp;
let composeDir: string;
let port: number;

/**
 * A request over real HTTP with the path sent exactly as given: the in-process injector (like
 * browsers) normalises `..` segments away, but a hostile client need not.
 */
function rawRequest(
  method: string,
  rawPath: string,
  body?: unknown,
): Promise<{ status: number; body: { detail: string; code: string } }> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  const headers: Record<string, string> = {
    cookie: [...t.client.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
    'x-csrf-token': t.client.cookies.get('csrf_access_token') ?? '',
    ...(payload ? { 'content-type': 'application/json' } : {}),
  };
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path: rawPath, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (c: string) => (text += c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as { detail: string; code: string } }),
      );
    });
    req.on('error', reject);
    req.end(payload);
  });
}

/** Every file (with its size and mtime) under a folder, to prove nothing outside the projects changed. */
function snapshot(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      // The databases take the audit log's and the event history's rows: writing them is expected.
      else if (/\.db(-wal|-shm)?$/.test(e.name)) continue;
      else {
        const st = fs.lstatSync(p);
        out.push(`${p}:${st.size}:${st.mtimeMs}`);
      }
    }
  };
  walk(dir);
  return out.sort();
}

beforeAll(async () => {
  testEngine();
  t = await createTestApp();
  composeDir = t.ctx.config.composeDir;
  fs.mkdirSync(composeDir, { recursive: true });
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  port = (t.app.server.address() as AddressInfo).port;
});
afterAll(async () => {
  await t?.close();
});

describe('project names', () => {
  const BAD_NAMES = [
    '..',
    '../x',
    '%2E%2E',
    '_',
    'My.App',
    '-h',
    'a;b',
    '.',
    '_x',
    'x/../../etc',
    'a b',
    '$(id)',
    'a'.repeat(64),
  ];

  it('refuses bad names with 400 and the rule on every route, changing nothing outside COMPOSE_DIR', async () => {
    const sentinel = path.join(t.dataDir, 'outside.txt');
    fs.writeFileSync(sentinel, 'keep me');
    const before = snapshot(t.dataDir);
    const content = twoServiceYaml();
    for (const name of BAD_NAMES) {
      const seg = encodeURIComponent(name);
      const calls: [string, string, unknown?][] = [
        ['GET', `/api/compose/${seg}`],
        ['POST', '/api/compose/', { name, content }],
        ['POST', `/api/compose/${seg}/edit`, { name, content }],
        ['POST', `/api/compose/ok-name/edit`, { name, content }],
        ['GET', `/api/compose/${seg}/actions/up`],
        ['POST', `/api/compose/${seg}/actions/down`],
        ['POST', `/api/compose/${seg}/actions/delete`],
        ['GET', `/api/compose/${seg}/actions/delete`],
        ['POST', `/api/compose/${seg}/actions/restart/web`],
        ['GET', `/api/compose/${seg}/support`],
        ['GET', `/api/compose/${seg}/actions/stream`],
      ];
      for (const [method, url, body] of calls) {
        const res = await rawRequest(method, url, body);
        expect(res.status, `${method} ${url} ${JSON.stringify(name)}`).toBe(400);
        expect(res.body.code).toBe('validation_error');
        expect(res.body.detail, `${method} ${url}`).toMatch(/lowercase letters, digits, _ and -/);
      }
    }
    expect(snapshot(t.dataDir)).toEqual(before);
    expect(fs.readFileSync(sentinel, 'utf8')).toBe('keep me');
  });

  it('accepts a 63-character name end to end', async () => {
    const name = `${projectName('long')}-`.padEnd(63, 'x');
    try {
      const res = await t.client.post<{ path: string }>('/api/compose/', { name, content: twoServiceYaml() });
      expect(res.status, res.text).toBe(200);
      expect((await t.client.get(`/api/compose/${name}`)).status).toBe(200);
      expect((await t.client.post(`/api/compose/${name}/actions/delete`)).status).toBe(200);
      expect(fs.existsSync(path.join(composeDir, name))).toBe(false);
    } finally {
      cleanupProject(name);
    }
  });
});

describe('state-changing GETs', () => {
  it('refuses a compose action sent by GET without the CSRF header, running nothing', async () => {
    const name = projectName('csrf');
    try {
      expect((await t.client.post('/api/compose/', { name, content: twoServiceYaml() })).status).toBe(200);
      for (const url of [
        `/api/compose/${name}/actions/up`,
        `/api/compose/${name}/actions/delete`,
        `/api/compose/${name}/actions/up/web`,
      ]) {
        const res = await t.client.get<{ code: string }>(url, { 'x-csrf-token': 'forged' });
        expect(res.status, url).toBe(401);
        expect(res.body.code).toBe('csrf_failed');
      }
      expect(fs.existsSync(path.join(composeDir, name, 'compose.yaml'))).toBe(true);
      const containers = await t.client.get<{ containers: unknown[] }>(`/api/compose/${name}`);
      expect(containers.body.containers).toEqual([]);
    } finally {
      fs.rmSync(path.join(composeDir, name), { recursive: true, force: true });
      cleanupProject(name);
    }
  });
});

describe('linked folders', () => {
  it('refuses a project folder that is a symbolic link on every route and leaves its target alone', async () => {
    const target = fs.mkdtempSync(path.join(os.tmpdir(), 'berth-t-linktarget-'));
    fs.writeFileSync(path.join(target, 'compose.yaml'), twoServiceYaml());
    const name = projectName('link');
    fs.symlinkSync(target, path.join(composeDir, name));
    try {
      for (const [method, url] of [
        ['GET', `/api/compose/${name}`],
        ['POST', `/api/compose/${name}/actions/delete`],
        ['POST', `/api/compose/${name}/actions/up`],
        ['GET', `/api/compose/${name}/support`],
      ] as const) {
        const res = await t.client.request<{ detail: string }>(method, url);
        expect(res.status, url).toBe(400);
        expect(res.body.detail).toMatch(/symbolic link/);
      }
      const edit = await t.client.post(`/api/compose/${name}/edit`, { name, content: 'services: {}\n' });
      expect(edit.status).toBe(400);
      expect(fs.readFileSync(path.join(target, 'compose.yaml'), 'utf8')).toBe(twoServiceYaml());
      const list = await t.client.get<Project[]>('/api/compose/');
      expect(list.status).toBe(200);
      expect(list.body.find((p) => p.name === name)?.error).toMatch(/symbolic link/);
    } finally {
      fs.unlinkSync(path.join(composeDir, name));
      fs.rmSync(target, { recursive: true, force: true });
    }
  });

  it('refuses a compose file that is a symbolic link', async () => {
    const name = projectName('filelink');
    fs.mkdirSync(path.join(composeDir, name));
    fs.symlinkSync('/etc/hostname', path.join(composeDir, name, 'compose.yaml'));
    try {
      const res = await t.client.get<{ detail: string }>(`/api/compose/${name}`);
      expect(res.status).toBe(400);
      expect(res.text).not.toContain(fs.readFileSync('/etc/hostname', 'utf8').trim() || '\u0000');
    } finally {
      fs.rmSync(path.join(composeDir, name), { recursive: true, force: true });
    }
  });
});

describe('hostile compose content', () => {
  const laughs = [
    'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]',
    ...'bcdefghi'.split('').map((c, i) => `${c}: &${c} [${Array(9).fill(`*${'abcdefghi'[i]}`).join(',')}]`),
    'services: {}',
  ].join('\n');

  it('refuses a YAML alias bomb ("billion laughs") within a second without echoing the expansion', async () => {
    const name = projectName('bomb');
    const started = Date.now();
    const res = await t.client.post<{ detail: string }>('/api/compose/', { name, content: laughs });
    expect(Date.now() - started).toBeLessThan(1000);
    expect(res.status).toBe(400);
    expect(res.body.detail).toMatch(/alias/i);
    expect(res.text.length).toBeLessThan(2000);
    expect(fs.existsSync(path.join(composeDir, name))).toBe(false);
  });

  it('refuses a hand-placed alias bomb in the list as an error entry, quickly', async () => {
    const name = projectName('bomblist');
    fs.mkdirSync(path.join(composeDir, name));
    fs.writeFileSync(path.join(composeDir, name, 'compose.yaml'), laughs);
    try {
      const started = Date.now();
      const res = await t.client.get<Project[]>('/api/compose/');
      expect(Date.now() - started).toBeLessThan(1000);
      expect(res.body.find((p) => p.name === name)?.error).toMatch(/alias/i);
    } finally {
      fs.rmSync(path.join(composeDir, name), { recursive: true, force: true });
    }
  });

  it('refuses 10,000-deep nesting with 400 and keeps serving', async () => {
    const name = projectName('deep');
    for (const content of [
      'x: ' + '['.repeat(10_000) + ']'.repeat(10_000),
      'x: ' + '{a: '.repeat(10_000) + '1' + '}'.repeat(10_000),
      'x:\n' + Array.from({ length: 60 }, (_, i) => `${'  '.repeat(i + 1)}k${i}:`).join('\n') + ' 1\n',
    ]) {
      const res = await t.client.post<{ detail: string }>('/api/compose/', { name, content });
      expect(res.status).toBe(400);
      expect(res.body.detail).toMatch(/nested deeper/);
    }
    expect((await t.client.get('/api/compose/')).status).toBe(200);
  });

  it('refuses a 10 MiB body with 413 within a second', async () => {
    const name = projectName('huge');
    const content = `services: {}\n# ${'x'.repeat(10 * 1024 * 1024)}\n`;
    const started = Date.now();
    const res = await t.client.post<{ code: string }>('/api/compose/', { name, content });
    expect(Date.now() - started).toBeLessThan(1000);
    expect(res.status).toBe(413);
    expect(res.body.code).toBe('payload_too_large');
    expect(fs.existsSync(path.join(composeDir, name))).toBe(false);
  });

  it('refuses content over 512 KiB that fits in a request with 413 naming the limit, keeping the old file', async () => {
    const name = projectName('big');
    try {
      expect((await t.client.post('/api/compose/', { name, content: twoServiceYaml() })).status).toBe(200);
      const res = await t.client.post<{ detail: string }>(`/api/compose/${name}/edit`, {
        name,
        content: `services: {}\n# ${'x'.repeat(600 * 1024)}\n`,
      });
      expect(res.status).toBe(413);
      expect(res.body.detail).toMatch(/512 KiB/);
      expect(fs.readFileSync(path.join(composeDir, name, 'compose.yaml'), 'utf8')).toBe(twoServiceYaml());
    } finally {
      fs.rmSync(path.join(composeDir, name), { recursive: true, force: true });
    }
  });

  it('refuses files that point outside the project folder, and the old file stays byte-identical', async () => {
    const name = projectName('refs');
    const created = await t.client.post('/api/compose/', { name, content: twoServiceYaml(testEngine().image) });
    expect(created.status).toBe(200);
    const file = path.join(composeDir, name, 'compose.yaml');
    try {
      const before = fs.readFileSync(file);
      const hostile = `services:\n  a:\n    image: ${testEngine().image}\n    env_file: /etc/shadow\nsecrets:\n  key:\n    file: ../../../root/.ssh/id_rsa\n`;
      const res = await t.client.post<{ detail: string; fields: { field: string }[] }>(`/api/compose/${name}/edit`, {
        name,
        content: hostile,
      });
      expect(res.status).toBe(400);
      expect(res.body.fields.map((f) => f.field)).toEqual(['services.a.env_file', 'secrets.key.file']);
      expect(fs.readFileSync(file).equals(before)).toBe(true);
      const fresh = await t.client.post('/api/compose/', {
        name: projectName('refs2'),
        content: 'include:\n  - /etc/passwd\nservices: {}\n',
      });
      expect(fresh.status).toBe(400);
    } finally {
      cleanupProject(name);
    }
  });

  it('judges paths after interpolation and merge keys: defaults, Berth variables and <<: are refused and nothing is saved', async () => {
    const image = testEngine().image;
    const secret = path.join(t.dataDir, 'keys', 'secret.key');
    const bodies: [string, string][] = [
      ['services.a.env_file', `services:\n  a:\n    image: ${image}\n    env_file: \${X:-${secret}}\n`],
      ['services.a.env_file', `services:\n  a:\n    image: ${image}\n    env_file: \${DATA_DIR}/keys/secret.key\n`],
      [
        'services.a.env_file',
        `x-base: &base\n  env_file: ${secret}\nservices:\n  a:\n    <<: *base\n    image: ${image}\n`,
      ],
      ['services.a.env_file', `services:\n  a:\n    <<: {env_file: ${secret}}\n    image: ${image}\n`],
    ];
    for (const [field, content] of bodies) {
      const name = projectName('interp');
      const res = await t.client.post<{ detail: string; code: string; fields: { field: string }[] }>('/api/compose/', {
        name,
        content,
      });
      expect(res.status, content).toBe(400);
      expect(res.body.code).toBe('validation_error');
      expect(res.body.detail).toMatch(/outside its project folder/);
      expect(res.body.fields.map((f) => f.field)).toEqual([field]);
      expect(fs.existsSync(path.join(composeDir, name))).toBe(false);
    }
  });

  it('reads the project .env to judge a path, as compose will', async () => {
    const name = projectName('dotenv');
    const content = (envFile: string) =>
      `services:\n  a:\n    image: ${testEngine().image}\n    env_file: ${envFile}\n`;
    try {
      const created = await t.client.post('/api/compose/', { name, content: twoServiceYaml() });
      expect(created.status, created.text).toBe(200);
      fs.writeFileSync(path.join(composeDir, name, '.env'), 'CONF=/etc\nLOCAL=conf\n');
      fs.mkdirSync(path.join(composeDir, name, 'conf'));
      fs.writeFileSync(path.join(composeDir, name, 'conf', 'app.env'), 'A=1\n');
      const refused = await t.client.post<{ detail: string }>(`/api/compose/${name}/edit`, {
        name,
        content: content('${CONF}/passwd'),
      });
      expect(refused.status).toBe(400);
      expect(refused.body.detail).toContain('${CONF}/passwd (= /etc/passwd)');
      const ok = await t.client.post(`/api/compose/${name}/edit`, { name, content: content('${LOCAL}/app.env') });
      expect(ok.status, ok.text).toBe(200);
    } finally {
      cleanupProject(name);
    }
  });

  it('refuses unknown body fields', async () => {
    const res = await t.client.post('/api/compose/', {
      name: projectName('extra'),
      content: 'services: {}\n',
      path: '/etc',
    });
    expect(res.status).toBe(400);
  });
});

describe("a project's .env", () => {
  it('reads back masked, reveals only after re-authentication, keeps masked values on save, and is judged with the compose file', async () => {
    const name = projectName('dotenv-edit');
    const content = `services:\n  a:\n    image: ${testEngine().image}\n    env_file: \${CONF:-./app.env}\n`;
    try {
      expect((await t.client.post('/api/compose/', { name, content })).status).toBe(200);
      expect((await t.client.get(`/api/compose/${name}/env`)).body).toEqual({ exists: false, content: '' });

      const saved = await t.client.request<{ content: string }>('PUT', `/api/compose/${name}/env`, {
        content: '# db\nDB_PASSWORD=s3cret-value\nEMPTY=\nBARE\n',
      });
      expect(saved.status, saved.text).toBe(200);
      expect(saved.body.content).toBe('# db\nDB_PASSWORD=********\nEMPTY=\nBARE\n');
      expect(fs.statSync(path.join(composeDir, name, '.env')).mode & 0o777).toBe(0o600);

      const refused = await t.client.post<{ code: string }>(`/api/compose/${name}/env/reveal`, {});
      expect([refused.status, refused.body.code]).toEqual([403, 'reauth_failed']);
      const revealed = await t.client.post<{ content: string }>(`/api/compose/${name}/env/reveal`, REAUTH);
      expect(revealed.body.content).toBe('# db\nDB_PASSWORD=s3cret-value\nEMPTY=\nBARE\n');

      expect(
        (await t.client.request('PUT', `/api/compose/${name}/env`, { content: 'DB_PASSWORD=********\nNEW=1\n' }))
          .status,
      ).toBe(200);
      expect(fs.readFileSync(path.join(composeDir, name, '.env'), 'utf8')).toBe('DB_PASSWORD=s3cret-value\nNEW=1\n');
      const unknown = await t.client.request<{ detail: string }>('PUT', `/api/compose/${name}/env`, {
        content: 'OTHER=********\n',
      });
      expect(unknown.status).toBe(400);
      expect(unknown.body.detail).toContain('OTHER has no stored value');

      // The .env feeds ${CONF}: a value that sends env_file outside the project is refused and nothing changes.
      const escape = await t.client.request<{ detail: string }>('PUT', `/api/compose/${name}/env`, {
        content: 'DB_PASSWORD=********\nCONF=/etc/passwd\n',
      });
      expect(escape.status).toBe(400);
      expect(fs.readFileSync(path.join(composeDir, name, '.env'), 'utf8')).toBe('DB_PASSWORD=s3cret-value\nNEW=1\n');
    } finally {
      cleanupProject(name);
    }
  });
});
