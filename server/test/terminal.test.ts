import { createHash, randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NewApiKey } from '@berth/contract';
import { createTestApp, REAUTH, type TestApp } from './helpers/app';
import { dockerCli, testEngine } from './helpers/engine';
import { cleanup, uniqueName } from './images-fixtures';
import { cookieHeader, EngineLink, inspect, listen, until } from './apps-fixtures';
import { refusal, Term } from './terminal-fixtures';

const execIds = (container: string) => inspect<{ ExecIDs: string[] | null }>(container).ExecIDs ?? [];

let t: TestApp;
let base: string;
let wsBase: string;
const running = uniqueName('term-run');
const stopped = uniqueName('term-stop');
const idler = uniqueName('term-idle');
const composed = uniqueName('term-svc');
const project = composed.replace(/^berth-t-/, 'p');

/** A signed-in browser: session cookie, its CSRF token as a subprotocol, our own Origin. */
const browser = (path: string, extra: { origin?: string; csrf?: boolean } = {}) => {
  const csrf = t.client.cookies.get('csrf_access_token')!;
  const protocols = ['berth.terminal', ...(extra.csrf === false ? [] : [`csrf.${csrf}`])];
  return Term.open(wsBase + path, { cookie: cookieHeader(t.client), origin: extra.origin ?? base }, protocols);
};

beforeAll(async () => {
  t = await createTestApp({ TERMINAL_MAX_SESSIONS_PER_USER: '20' });
  base = await listen(t.app);
  wsBase = base.replace(/^http/, 'ws');
  const { image } = testEngine();
  const common = ['--label', 'berth.test=1', '--stop-timeout', '1'];
  dockerCli(['run', '-d', '--name', running, ...common, image, 'sleep', '3600']);
  dockerCli(['create', '--name', stopped, ...common, image, 'sleep', '3600']);
  dockerCli(['run', '-d', '--name', idler, ...common, image, 'sleep', '3600']);
  // A compose service is found by its labels alone, so a labelled container stands in for one.
  const labels = ['--label', `com.docker.compose.project=${project}`, '--label', 'com.docker.compose.service=web'];
  dockerCli(['run', '-d', '--name', composed, ...common, ...labels, image, 'sleep', '3600']);
});

afterAll(async () => {
  cleanup('container', running, stopped, composed, idler);
  await t?.close();
});

describe('web terminal', () => {
  it('refuses a foreign Origin, a missing CSRF token, a revoked API key and a stopped or unknown app, before any exec', async () => {
    const path = `/api/apps/${running}/exec`;
    expect(await refusal(browser(path, { origin: 'https://evil.example' }))).toEqual({
      status: 403,
      code: 'csrf_failed',
    });
    expect(await refusal(browser(path, { csrf: false }))).toEqual({ status: 401, code: 'csrf_failed' });
    expect(await refusal(browser(path + '?token=x'))).toMatchObject({ status: 400 });

    const key = (await t.client.post<NewApiKey>('/api/auth/api/keys/new', { key_name: 'terminal', ...REAUTH })).body;
    expect((await t.client.delete(`/api/auth/api/keys/${key.id}`)).status).toBe(200);
    expect(await refusal(Term.open(wsBase + path, { authorization: `Bearer ${key.token}` }))).toEqual({
      status: 401,
      code: 'unauthorized',
    });

    expect(await refusal(browser(`/api/apps/${stopped}/exec`))).toEqual({ status: 409, code: 'conflict' });
    expect(await refusal(browser(`/api/apps/${uniqueName('nope')}/exec`))).toEqual({ status: 404, code: 'not_found' });
    expect(execIds(running)).toEqual([]);
    expect(execIds(stopped)).toEqual([]);
  });

  it("refuses an operator's user=0 before any exec (issue 32), naming the policy rule; the admin may", async () => {
    const made = await t.client.post('/api/users', {
      email: 'term-op@berth.test',
      password: 'operator-password-long',
      role: 'operator',
      ...REAUTH,
    });
    expect(made.status, made.text).toBe(200);
    const op = t.anon();
    await op.login('term-op@berth.test', 'operator-password-long');
    const key = (
      await op.post<NewApiKey>('/api/auth/api/keys/new', { key_name: 'op', current_password: 'operator-password-long' })
    ).body;
    const path = `/api/apps/${running}/exec?user=0`;
    expect(await refusal(Term.open(wsBase + path, { authorization: `Bearer ${key.token}` }))).toEqual({
      status: 403,
      code: 'policy_denied',
    });
    expect(execIds(running)).toEqual([]);
    const term = await browser(`${path}&cmd=id`);
    await term.waitFor('uid=0(root)');
    term.ws.close();
  });

  it('lists the shells of a running app, first usable first', async () => {
    const res = await t.client.get<{ shells: string[] }>(`/api/apps/${running}/shells`);
    expect(res.body).toEqual({ shells: ['ash', 'sh'] });
    expect((await t.client.get(`/api/apps/${stopped}/shells`)).status).toBe(409);
  });

  it('offers only shells the engine can start: a busybox whose ash is its applet only has sh (issue 39 #3)', async () => {
    const name = uniqueName('term-noash');
    dockerCli(['run', '-d', '--name', name, '--label', 'berth.test=1', testEngine().image, 'sleep', '3600']);
    try {
      dockerCli(['exec', name, 'rm', '/bin/ash']);
      // busybox sh still answers `command -v ash`; the engine cannot run it.
      expect(dockerCli(['exec', name, 'sh', '-c', 'command -v ash']).trim()).toBe('ash');
      const res = await t.client.get<{ shells: string[] }>(`/api/apps/${name}/shells`);
      expect(res.body).toEqual({ shells: ['sh'] });
    } finally {
      cleanup('container', name);
    }
  });

  it('runs a shell for a browser: input, output, resize, and the exit code in the close reason', async () => {
    const term = await browser(`/api/apps/${running}/exec?shell=ash&cols=80&rows=24`);
    expect(term.ws.protocol).toBe('berth.terminal');
    term.type('echo $((6*7))\r');
    await term.waitFor(/\r\n42\r\n/);
    term.ws.send(JSON.stringify({ type: 'resize', cols: 100, rows: 30 }));
    term.type('stty size\r');
    await term.waitFor(/\r\n30 100\r\n/);
    term.type('exit 3\r');
    expect(await term.waitClosed()).toEqual({ code: 1000, reason: 'exit 3' });
  });

  it('serves an API key without a CSRF token, and a compose service under its environment-scoped project path', async () => {
    const key = (await t.client.post<NewApiKey>('/api/auth/api/keys/new', { key_name: 'terminal-ok', ...REAUTH })).body;
    const shells = await t.client.get<{ shells: string[] }>(
      `/api/environments/local/compose/${project}/services/web/shells`,
    );
    expect(shells.body.shells).toContain('sh');
    const term = await Term.open(
      `${wsBase}/api/environments/local/compose/${project}/services/web/exec?cols=50&rows=10`,
      { authorization: `Bearer ${key.token}` },
    );
    term.type('stty size; hostname\r');
    await term.waitFor(`10 50\r\n${inspect<{ Config: { Hostname: string } }>(composed).Config.Hostname}\r\n`);
    term.ws.close();
    await until(() => execIds(composed).length === 0, 'the hung-up shell to end');
  });

  it('carries 1 MiB each way through 20 concurrent sessions intact, caps the user at 20, and leaves no exec behind', async () => {
    await until(() => t.services.terminals.count(1) === 0, 'earlier sessions to be released');
    const script = encodeURIComponent('stty raw -echo; printf READY; exec cat');
    const path = `/api/apps/${running}/exec?cmd=sh&cmd=-c&cmd=${script}`;
    const terms = await Promise.all(Array.from({ length: 20 }, () => browser(path)));
    expect(await refusal(browser(path))).toEqual({ status: 429, code: 'too_many_requests' });

    const payloads = terms.map(() => {
      const bytes = randomBytes(1024 * 1024);
      // The engine holds back a last byte that could start its detach sequence (ctrl-^, see exec.ts) until the next byte.
      bytes[bytes.length - 1] = 0x0a;
      return bytes;
    });
    await Promise.all(
      terms.map(async (term, i) => {
        await term.waitFor('READY');
        const payload = payloads[i]!;
        for (let at = 0; at < payload.length; at += 64 * 1024)
          term.ws.send(payload.subarray(at, at + 64 * 1024), { binary: true });
        const expected = Buffer.concat([Buffer.from('READY'), payload]);
        // Generous: 40 MiB through the engine's terminals takes about 5 s on an idle machine, far more on a loaded one.
        await until(() => term.received >= expected.length, `session ${i} to echo 1 MiB`, 150_000).catch((e: Error) => {
          throw new Error(`${e.message}; bytes back per session: ${terms.map((x) => x.received).join(', ')}`);
        });
        expect(sha(term.output)).toBe(sha(expected));
      }),
    );
    for (const term of terms) term.ws.close();
    await until(() => execIds(running).length === 0, 'every exec to end', 30_000);
    await until(() => t.services.terminals.count(1) === 0, 'every session slot to be released');
  }, 240_000);
});

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe('web terminal idle timeout', () => {
  it('closes a session nobody types into and ends its process', async () => {
    const idle = await createTestApp({ TERMINAL_IDLE_MINUTES: '0.02' });
    try {
      const url = (await listen(idle.app)).replace(/^http/, 'ws');
      const term = await Term.open(`${url}/api/apps/${idler}/exec`, { cookie: cookieHeader(idle.client) }, [
        'berth.terminal',
        `csrf.${idle.client.cookies.get('csrf_access_token')!}`,
      ]);
      expect(await term.waitClosed()).toEqual({ code: 4000, reason: 'Closed after 1 s without input.' });
      await until(() => execIds(idler).length === 0, 'the idle shell to end');
    } finally {
      await idle.close();
    }
  });

  it('answers a plain GET of a terminal endpoint with a 400 naming WebSocket', async () => {
    const res = await t.client.get<{ detail: string }>(`/api/apps/${running}/exec`);
    expect(res.status).toBe(400);
    expect(res.body.detail).toMatch(/WebSocket/);
  });
});

describe('web terminal starts on a slow engine (hardening II #16)', () => {
  it('a start that times out leaves no shell behind, and the next start works', async () => {
    const engine = new URL(testEngine().dockerHost);
    const link = new EngineLink(path.join(os.tmpdir(), `berth-t-term-link-${process.pid}.sock`), engine.pathname);
    await link.up();
    const slow = await createTestApp({ DOCKER_HOST: `unix://${link.socketPath}`, ENGINE_TIMEOUT_SECONDS: '1' });
    try {
      const url = (await listen(slow.app)).replace(/^http/, 'ws');
      const open = () =>
        Term.open(`${url}/api/apps/${idler}/exec?shell=sh`, { cookie: cookieHeader(slow.client) }, [
          'berth.terminal',
          `csrf.${slow.client.cookies.get('csrf_access_token')!}`,
        ]);
      // The engine answers the attach after Berth's 1 s timeout: the shell starts with nobody attached.
      link.slowReplies = { call: 'POST /exec/{id}/start', ms: 2500 };
      const terms = await Promise.all([open(), open(), open()]);
      for (const term of terms) expect((await term.waitClosed()).code).toBe(4001);
      expect(link.count('POST /exec/{id}/start')).toBeGreaterThanOrEqual(3);
      // Each late shell is found and hung up (the engine keeps a TTY's process running once its client went).
      await until(() => execIds(idler).length === 0, 'every late shell to be hung up', 30_000);
      await new Promise((r) => setTimeout(r, 3000));
      expect(execIds(idler)).toEqual([]);

      link.slowReplies = null;
      const term = await open();
      term.type('echo fine-$((1+1))\r');
      await term.waitFor('fine-2');
      term.ws.close();
      await until(() => execIds(idler).length === 0, 'the shell to end');
    } finally {
      await slow.close();
      await link.down();
    }
  }, 90_000);
});
