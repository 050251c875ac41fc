import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  ApiError,
  BuildImageRequest,
  BuildResult,
  GitCredential,
  ImageDetail,
  LoadResult,
  PushResult,
  User,
} from '@berth/contract';
import { createTestApp, REAUTH, type TestApp, type TestClient } from './helpers/app';
import { dockerCli, testEngine } from './helpers/engine';
import { cookieHeader, listen } from './apps-fixtures';
import { cleanup, exists, parseSse, uniqueName } from './images-fixtures';
import { gitHarness, TestRepo } from './helpers/git-repos';
import { processesMentioning, sampleProcesses, treeText } from './helpers/leaks';

const BASE = '/api/resources/images';
let t: TestApp;
let base: string;
let operator: TestClient;
const tags: string[] = [];
const containers: string[] = [];
const repos: TestRepo[] = [];
const logLines: string[] = [];
let work: string;

/** A POST through the real listener (fetch, as the browser sends it), answered as its server-sent events. */
async function post(
  client: TestClient,
  url: string,
  body: NonNullable<RequestInit['body']>,
  headers: Record<string, string> = {},
  signal?: AbortSignal,
): Promise<Response> {
  return fetch(base + url, {
    method: 'POST',
    body,
    signal,
    headers: {
      cookie: cookieHeader(client),
      'x-csrf-token': client.cookies.get('csrf_access_token')!,
      accept: 'text/event-stream',
      ...headers,
    },
    // A stream body needs half-duplex in Node's fetch.
    ...(body instanceof ReadableStream ? { duplex: 'half' } : {}),
  } as RequestInit);
}

async function events(res: Response) {
  expect(res.status, res.status === 200 ? '' : await res.clone().text()).toBe(200);
  const text = await res.text();
  if (process.env.DEBUG_SSE) console.log(text);
  return parseSse(text);
}

/** Builds through the API (JSON or multipart) and answers the output text and the result. */
async function build(options: BuildImageRequest, context?: { file: string; name: string }) {
  let body: NonNullable<RequestInit['body']>;
  const headers: Record<string, string> = {};
  if (context) {
    const form = new FormData();
    form.append('options', JSON.stringify(options));
    form.append('context', new Blob([fs.readFileSync(context.file)]), context.name);
    body = form;
  } else {
    body = JSON.stringify(options);
    headers['content-type'] = 'application/json';
  }
  const list = await events(await post(t.client, `${BASE}/build`, body, headers));
  const output = list
    .filter((e) => e.event === 'output')
    .map((e) => (e.data as { text: string }).text)
    .join('');
  const end = list.at(-1)!;
  return { output, end: end as { event: string; data: BuildResult | ApiError } };
}

const run = (image: string, ...cmd: string[]) =>
  dockerCli(['run', '--rm', '--label', 'berth.test=1', image, ...cmd]).trim();

/** A folder with a Dockerfile copying a file, as a tar.gz and as a zip of the folder. */
function contextFolder(): string {
  const dir = path.join(work, 'ctx');
  fs.mkdirSync(path.join(dir, 'sub'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'hello.txt'), 'hello from the context\n');
  fs.writeFileSync(path.join(dir, 'sub', 'nested.txt'), 'nested\n');
  fs.writeFileSync(
    path.join(dir, 'Dockerfile'),
    `FROM ${testEngine().image}\nARG WHO=nobody\nCOPY hello.txt sub/nested.txt /\nRUN echo "built for $WHO" > /who.txt\n`,
  );
  return dir;
}

beforeAll(async () => {
  gitHarness();
  t = await createTestApp({ LOG_LEVEL: 'debug' }, {}, { logStream: { write: (l) => void logLines.push(l) } });
  base = await listen(t.app);
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'berth-img-'));
  const op = await t.client.post<User>('/api/users', {
    email: 'img-operator@berth.test',
    password: 'operator-password-long',
    role: 'operator',
    ...REAUTH,
  });
  expect(op.status, op.text).toBe(200);
  operator = t.anon();
  await operator.login('img-operator@berth.test', 'operator-password-long');
});

afterAll(async () => {
  cleanup('container', ...containers);
  cleanup('image', ...tags);
  fs.rmSync(work, { recursive: true, force: true });
  for (const r of repos) r.remove();
  await t?.close();
});

describe('image build', () => {
  it('builds a typed Dockerfile with build args and a target, streaming its output, and answers the image id', async () => {
    const tag = `${uniqueName('build')}:v1`;
    tags.push(tag);
    const dockerfile = `FROM ${testEngine().image} AS base\nARG GREETING\nRUN echo "$GREETING" > /greeting\nFROM base AS final\nRUN false\n`;
    const { output, end } = await build({
      dockerfile,
      tags: [tag],
      build_args: { GREETING: 'hi there' },
      target: 'base',
    });
    expect(end.event, JSON.stringify(end.data)).toBe('done');
    const result = end.data as BuildResult;
    expect(result.id).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(result.tags).toEqual([tag]);
    expect(output).toMatch(/Step 1\/\d+ : FROM/);
    expect(run(tag, 'cat', '/greeting')).toBe('hi there');
    const detail = await t.client.get<ImageDetail>(`${BASE}/${encodeURIComponent(tag)}`);
    expect(detail.body.Id).toBe(result.id);
  });

  it('says why a build failed, with the last lines of its output', async () => {
    const { end } = await build({ dockerfile: `FROM ${testEngine().image}\nRUN echo about-to-fail && exit 3\n` });
    expect(end.event).toBe('error');
    expect((end.data as ApiError).detail).toMatch(/returned a non-zero code: 3/);
    expect((end.data as ApiError).detail).toMatch(/about-to-fail/);
  });

  it('builds an uploaded .tar.gz context and a zip of a folder (with a typed Dockerfile beside it)', async () => {
    const dir = contextFolder();
    const tgz = path.join(work, 'ctx.tar.gz');
    spawnSync('tar', ['-czf', tgz, '-C', dir, '.']);
    const tag = `${uniqueName('build-tgz')}:v1`;
    tags.push(tag);
    const fromTar = await build({ tags: [tag], build_args: { WHO: 'tar' } }, { file: tgz, name: 'ctx.tar.gz' });
    expect(fromTar.end.event, JSON.stringify(fromTar.end.data)).toBe('done');
    expect(run(tag, 'cat', '/hello.txt', '/nested.txt', '/who.txt')).toBe(
      'hello from the context\nnested\nbuilt for tar',
    );

    const zip = path.join(work, 'ctx.zip');
    expect(spawnSync('zip', ['-qr', zip, 'ctx'], { cwd: work }).status).toBe(0);
    const zipTag = `${uniqueName('build-zip')}:v1`;
    tags.push(zipTag);
    const typed = `FROM ${testEngine().image}\nCOPY sub/nested.txt /from-zip.txt\n`;
    const fromZip = await build({ tags: [zipTag], dockerfile: typed }, { file: zip, name: 'ctx.zip' });
    expect(fromZip.end.event, JSON.stringify(fromZip.end.data)).toBe('done');
    expect(run(zipTag, 'cat', '/from-zip.txt')).toBe('nested');
  });

  it('refuses an upload that is no archive, and options that do not make a build, before anything is built', async () => {
    const junk = path.join(work, 'junk.bin');
    fs.writeFileSync(junk, 'this is not an archive'.repeat(40));
    const { end } = await build({ tags: [] }, { file: junk, name: 'junk.bin' });
    expect(end.event).toBe('error');
    expect((end.data as ApiError).detail).toMatch(/not a \.tar, \.tar\.gz or \.zip/);

    const none = await t.client.post<ApiError>(`${BASE}/build`, {});
    expect(none.status).toBe(400);
    expect(none.body.fields?.[0]?.field).toBe('dockerfile');
    const both = await t.client.post<ApiError>(`${BASE}/build`, {
      dockerfile: 'FROM x',
      git: { url: 'git://127.0.0.1/x.git' },
    });
    expect(both.status).toBe(400);
    const badTag = await t.client.post<ApiError>(`${BASE}/build`, { dockerfile: 'FROM x', tags: ['Bad Tag'] });
    expect(badTag.status).toBe(400);
    expect(badTag.body.fields?.[0]?.field).toBe('tags.0');
  });

  it("refuses an operator's build on the host network as the policy does, and lets an admin", async () => {
    const res = await operator.post<ApiError>(`${BASE}/build`, {
      dockerfile: `FROM ${testEngine().image}\n`,
      network: 'host',
    });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('policy_denied');
    expect(res.body.detail).toMatch(/Host network/);
    const tag = `${uniqueName('build-host')}:v1`;
    tags.push(tag);
    const admin = await build({ dockerfile: `FROM ${testEngine().image}\nRUN true\n`, network: 'host', tags: [tag] });
    expect(admin.end.event).toBe('done');
  });

  it('cancels a build when its stream is closed: the engine stops it and no image is made', async () => {
    const tag = `${uniqueName('build-cancel')}:v1`;
    tags.push(tag);
    const marker = `cancel-${Date.now()}`;
    const abort = new AbortController();
    const res = await post(
      t.client,
      `${BASE}/build`,
      JSON.stringify({ dockerfile: `FROM ${testEngine().image}\nRUN echo ${marker} && sleep 60\n`, tags: [tag] }),
      { 'content-type': 'application/json' },
      abort.signal,
    );
    const reader = res.body!.getReader();
    let seen = '';
    // The echo's own line (the step's line names the marker too, without a line end after it).
    while (!seen.includes(`"${marker}\\n"`)) {
      const chunk = await reader.read();
      if (chunk.done) throw new Error(`The build ended before its RUN step: ${seen}`);
      seen += new TextDecoder().decode(chunk.value);
    }
    abort.abort();
    // The build's RUN container goes away with the request.
    const deadline = Date.now() + 20_000;
    let left = '';
    do {
      await new Promise((r) => setTimeout(r, 300));
      left = dockerCli(['ps', '-a', '--no-trunc', '--format', '{{.Command}}']);
    } while (left.includes(marker) && Date.now() < deadline);
    expect(left).not.toContain(marker);
    expect(exists('image', tag)).toBe(false);
  });
});

/** A build from git fetches, packs and builds: on a loaded host that takes more than the default minute. */
const BUILD_MS = 180_000;

/** A repository of the harness's git servers with a Dockerfile (FROM the local test image) in the folder `docker`. */
function dockerRepo(feature: string, msg: string): TestRepo {
  const repo = new TestRepo(feature);
  repos.push(repo);
  repo.commit({
    'docker/Dockerfile': `FROM ${testEngine().image}\nARG WHO=nobody\nCOPY msg.txt /msg.txt\nRUN echo "for $WHO" > /who.txt\n`,
    'docker/msg.txt': `${msg}\n`,
    'README.md': 'not in the context\n',
  });
  return repo;
}

const credential = async (body: object) => {
  const res = await t.client.post<GitCredential>('/api/git/credentials', body);
  expect(res.status, res.text).toBe(200);
  return res.body.id;
};

/** The snapshot copies a build from git fetched into (all removed once each build ended). */
const snapshots = () => {
  const dir = path.join(t.dataDir, '.tmp', 'git-snapshots');
  return fs.existsSync(dir) ? fs.readdirSync(dir) : [];
};

describe('image build from git', () => {
  it(
    'builds a subfolder of a public repository (url#ref:folder, as the engine writes it) with build args',
    async () => {
      const repo = dockerRepo('build-pub', 'from git');
      const tag = `${uniqueName('build-git')}:v1`;
      tags.push(tag);
      const { end, output } = await build({
        git: { url: `${repo.url('daemon')}#main:docker` },
        tags: [tag],
        build_args: { WHO: 'git' },
      });
      expect(end.event, `${JSON.stringify(end.data)}\n${output}`).toBe('done');
      expect(output).toMatch(/^Fetching git:\/\/.* at main…\nChecked out [0-9a-f]{12}, building docker\/\n/);
      expect(run(tag, 'cat', '/msg.txt', '/who.txt')).toBe('from git\nfor git');
      expect(run(tag, 'ls', '/')).not.toMatch(/README|\.git/);
      const inspected = await t.client.get<ImageDetail>(`${BASE}/${encodeURIComponent(tag)}`);
      expect(inspected.body.Id).toBe((end.data as BuildResult).id);
      expect(snapshots()).toEqual([]);
    },
    BUILD_MS,
  );

  it(
    'a private repository over http: refused without its credential, built with it; the token is in no response, log, process or file',
    async () => {
      const h = gitHarness();
      const repo = dockerRepo('build-http', 'private http');
      const git = { url: repo.url('http'), ref: 'main', subdir: 'docker' };
      const refused = await build({ git });
      expect(refused.end.event).toBe('error');
      expect(refused.end.data).toMatchObject({ code: 'upstream_error' });
      expect((refused.end.data as ApiError).detail).toMatch(/authentication failed/i);

      const id = await credential({ kind: 'https', name: 'build http', username: h.httpUser, token: h.httpToken });
      const tag = `${uniqueName('build-http')}:v1`;
      tags.push(tag);
      const { result, seen } = await sampleProcesses(() => build({ git: { ...git, credential_id: id }, tags: [tag] }));
      expect(result.end.event, JSON.stringify(result.end.data)).toBe('done');
      expect(run(tag, 'cat', '/msg.txt')).toBe('private http');
      expect(seen.length).toBeGreaterThan(2);
      const everywhere = [
        seen.join('\n'),
        result.output,
        JSON.stringify(result.end.data),
        (await t.client.get(`/api/git/credentials/${id}`)).text,
        (await t.client.get('/api/audit?limit=500')).text,
        logLines.join(''),
        treeText(t.dataDir),
      ];
      for (const where of everywhere) expect(where).not.toContain(h.httpToken);
      expect(snapshots()).toEqual([]);
    },
    BUILD_MS,
  );

  it(
    'a private repository over ssh with a deploy key (its host key kept on first sight)',
    async () => {
      const h = gitHarness();
      if (!h.ssh || !h.sshKey) throw new Error('no ssh:// git in the harness (scripts/test-env-git.sh needs its sshd)');
      const repo = dockerRepo('build-ssh', 'private ssh');
      const id = await credential({ kind: 'ssh', name: 'build key', private_key: fs.readFileSync(h.sshKey, 'utf8') });
      const tag = `${uniqueName('build-ssh')}:v1`;
      tags.push(tag);
      const { end, output } = await build({
        git: { url: repo.url('ssh'), subdir: 'docker', credential_id: id },
        tags: [tag],
      });
      expect(end.event, `${JSON.stringify(end.data)}\n${output}`).toBe('done');
      expect(run(tag, 'cat', '/msg.txt')).toBe('private ssh');
      const kept = await t.client.get<GitCredential>(`/api/git/credentials/${id}`);
      expect(kept.body.known_hosts).toEqual([expect.stringMatching(/^\[127\.0\.0\.1\]:\d+ ssh-ed25519 /)]);
    },
    BUILD_MS,
  );

  it(
    'refuses what a git-backed project refuses: a password in the URL, an unknown credential, a folder the repository lacks',
    async () => {
      const inUrl = await t.client.post<ApiError>(`${BASE}/build`, {
        git: { url: 'https://u:secret@127.0.0.1/x.git' },
      });
      expect(inUrl.status).toBe(400);
      expect(inUrl.body.detail).toMatch(/git credential, not in the URL/);
      const unknown = await t.client.post<ApiError>(`${BASE}/build`, {
        git: { url: 'git://127.0.0.1/x.git', credential_id: 'no-such-credential' },
      });
      expect(unknown.status).toBe(404);
      const repo = dockerRepo('build-nofolder', 'x');
      const noFolder = await build({ git: { url: repo.url('daemon'), subdir: 'nowhere' } });
      expect(noFolder.end.data).toMatchObject({
        code: 'validation_error',
        detail: 'The repository has no folder nowhere.',
      });
      const noFile = await build({
        git: { url: repo.url('daemon'), subdir: 'docker' },
        dockerfile_path: 'Other.Dockerfile',
      });
      expect((noFile.end.data as ApiError).detail).toBe('The folder docker has no Other.Dockerfile.');
    },
    BUILD_MS,
  );

  it(
    'cancels the fetch when the build stream is closed: git is stopped and its copy removed',
    async () => {
      // A remote that accepts the connection and never answers: the fetch waits until it is stopped.
      const sockets: net.Socket[] = [];
      const silent = net.createServer((c) => void sockets.push(c));
      await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
      const url = `http://127.0.0.1:${(silent.address() as net.AddressInfo).port}/stuck.git`;
      const gitPids = () => processesMentioning(url);
      try {
        const abort = new AbortController();
        const res = await post(
          t.client,
          `${BASE}/build`,
          JSON.stringify({ git: { url } }),
          { 'content-type': 'application/json' },
          abort.signal,
        );
        const reader = res.body!.getReader();
        let seen = '';
        while (!seen.includes('Fetching')) seen += new TextDecoder().decode((await reader.read()).value);
        const deadline = Date.now() + 10_000;
        while (!gitPids().length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
        expect(gitPids().length).toBeGreaterThan(0);
        const started = Date.now();
        abort.abort();
        while ((gitPids().length || snapshots().length) && Date.now() < started + 10_000)
          await new Promise((r) => setTimeout(r, 100));
        expect(gitPids()).toEqual([]);
        expect(snapshots()).toEqual([]);
        expect(Date.now() - started).toBeLessThan(5_000);
      } finally {
        for (const c of sockets) c.destroy();
        silent.close();
      }
    },
    BUILD_MS,
  );
});

describe('tag, push, export and load', () => {
  it('tags an image, pushes it to the registry with progress, and answers its digest', async () => {
    const src = `${uniqueName('push-src')}:v1`;
    tags.push(src);
    const built = await build({ dockerfile: `FROM ${testEngine().image}\nRUN echo pushed > /p\n`, tags: [src] });
    const id = (built.end.data as BuildResult).id;
    const repo = `${testEngine().registry}/${uniqueName('push')}`;
    tags.push(`${repo}:1.0.0`);
    const tagged = await t.client.post<ImageDetail>(`${BASE}/${encodeURIComponent(id)}/tag`, { repo, tag: '1.0.0' });
    expect(tagged.status, tagged.text).toBe(200);
    expect(tagged.body.RepoTags).toContain(`${repo}:1.0.0`);

    const list = await events(
      await post(t.client, `${BASE}/${encodeURIComponent(id)}/push`, JSON.stringify({ tag: `${repo}:1.0.0` }), {
        'content-type': 'application/json',
      }),
    );
    const end = list.at(-1)!;
    expect(end.event, JSON.stringify(end.data)).toBe('done');
    expect(list.some((e) => e.event === 'progress')).toBe(true);
    const digest = (end.data as PushResult).pushed[0]!.digest;
    expect(digest).toMatch(/^sha256:/);
    const tagsList = (await (
      await fetch(`http://${testEngine().registry}/v2/${repo.split('/').slice(1).join('/')}/tags/list`)
    ).json()) as { tags: string[] };
    expect(tagsList.tags).toEqual(['1.0.0']);

    const notMine = await t.client.post<ApiError>(`${BASE}/${encodeURIComponent(id)}/push`, { tag: `${repo}:9.9.9` });
    expect(notMine.status).toBe(400);
  });

  it('exports two images to one tar, and after they are removed loads them back under their names', async () => {
    const a = `${uniqueName('save-a')}:v1`;
    const b = `${uniqueName('save-b')}:v2`;
    tags.push(a, b);
    // A label of their own, so no cached image of an earlier run carries other tags into the archive.
    const fresh = `LABEL berth.nonce="${Math.random()}"`;
    await build({ dockerfile: `FROM ${testEngine().image}\n${fresh}\nRUN echo aaa > /which\n`, tags: [a] });
    await build({ dockerfile: `FROM ${testEngine().image}\n${fresh}\nRUN echo bbb > /which\n`, tags: [b] });
    const res = await fetch(`${base}${BASE}/batch/export?ids=${encodeURIComponent(`${a},${b}`)}`, {
      headers: { cookie: cookieHeader(t.client) },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/application\/x-tar/);
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="images-2.tar"');
    const file = path.join(work, 'two.tar');
    fs.writeFileSync(file, Buffer.from(await res.arrayBuffer()));
    cleanup('image', a, b);
    expect(exists('image', a) || exists('image', b)).toBe(false);

    const loaded = await events(
      await post(t.client, `${BASE}/load`, new Blob([fs.readFileSync(file)]), {
        'content-type': 'application/octet-stream',
      }),
    );
    const end = loaded.at(-1)!;
    expect(end.event, JSON.stringify(end.data)).toBe('done');
    expect((end.data as LoadResult).loaded.sort()).toEqual([a, b].sort());
    expect(run(a, 'cat', '/which')).toBe('aaa');
    expect(run(b, 'cat', '/which')).toBe('bbb');

    const one = await fetch(`${base}${BASE}/${encodeURIComponent(a)}/export`, {
      headers: { cookie: cookieHeader(t.client) },
    });
    expect(one.headers.get('content-disposition')).toMatch(/filename=".*save-a.*\.tar"/);
    await one.arrayBuffer();
  });

  it('refuses to load what is not an image archive', async () => {
    const res = await t.client.post<ApiError>(`${BASE}/load`, Buffer.from('not a tar at all'), {
      'content-type': 'application/octet-stream',
    });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
  });
});
