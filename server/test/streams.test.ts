import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiError, NewApiKey, User } from '@berth/contract';
import { createTestApp, REAUTH, type TestApp, type TestClient } from './helpers/app';
import { dockerCli, testEngine } from './helpers/engine';
import { cleanup, uniqueName } from './images-fixtures';
import { cookieHeader, inspect, listen, readSseBlocks, until, type SseBlock } from './apps-fixtures';
import { Term } from './terminal-fixtures';

let t: TestApp;
let base: string;
const box = uniqueName('streams-box');

beforeAll(async () => {
  t = await createTestApp();
  base = await listen(t.app);
  dockerCli([
    'run',
    '-d',
    '--name',
    box,
    '--label',
    'berth.test=1',
    '--stop-timeout',
    '1',
    testEngine().image,
    'sleep',
    '3600',
  ]);
});

afterAll(async () => {
  cleanup('container', box);
  await t?.close();
});

const execIds = () => inspect<{ ExecIDs: string[] | null }>(box).ExecIDs ?? [];

/** How a client authenticates: a signed-in browser (cookie + CSRF) or an API key. */
interface Credentials {
  headers: Record<string, string>;
  protocols: string[];
}

const byCookie = (c: TestClient): Credentials => ({
  headers: { cookie: cookieHeader(c), origin: base },
  protocols: ['berth.terminal', `csrf.${c.cookies.get('csrf_access_token')!}`],
});
const byKey = (token: string): Credentials => ({ headers: { authorization: `Bearer ${token}` }, protocols: [] });

/** A live event stream read over real HTTP; `blocks` fills as events come, `ended` once the server closed it. */
class Stream {
  readonly blocks: SseBlock[] = [];
  ended = false;
  private readonly abort = new AbortController();

  static async open(
    creds: Credentials,
    path = '/api/events/stream',
  ): Promise<Stream | { status: number; body: ApiError }> {
    const s = new Stream();
    const res = await fetch(base + path, { headers: creds.headers, signal: s.abort.signal });
    if (res.status !== 200) return { status: res.status, body: (await res.json()) as ApiError };
    void readSseBlocks(res.body!, (b) => s.blocks.push(b))
      .catch(() => undefined) // aborted by close(): the test is done with it
      .finally(() => (s.ended = true));
    return s;
  }

  end(): unknown {
    const block = this.blocks.find((b) => b.event === 'end');
    return block ? JSON.parse(block.data) : undefined;
  }

  close(): void {
    this.abort.abort();
  }
}

async function openStream(creds: Credentials): Promise<Stream> {
  const s = await Stream.open(creds);
  if (!(s instanceof Stream)) throw new Error(`stream refused: ${s.status} ${JSON.stringify(s.body)}`);
  return s;
}

let n = 0;
/** A fresh operator, signed in, with an API key. */
async function operator() {
  const email = `streams-${++n}@berth.test`;
  const password = `streams-password-${n}`;
  const made = await t.client.post<User>('/api/users', { email, password, role: 'operator', ...REAUTH });
  expect(made.status, made.text).toBe(200);
  const c = t.anon();
  await c.login(email, password);
  const key = (await c.post<NewApiKey>('/api/auth/api/keys/new', { key_name: 'streams', current_password: password }))
    .body;
  return { id: made.body.id, email, password, c, key };
}
type Operator = Awaited<ReturnType<typeof operator>>;

interface Case {
  name: string;
  /** The stream opened with the API key rather than the session. */
  viaKey?: boolean;
  act: (u: Operator) => Promise<{ status: number; text: string }>;
  /** The viewer-level event stream ends too (not on a demotion to viewer). */
  sseEnds: boolean;
  reason: RegExp;
}

const CASES: Case[] = [
  {
    name: 'demoted below the route role',
    act: (u) => t.client.patch(`/api/users/${u.id}`, { role: 'viewer', ...REAUTH }),
    sseEnds: false,
    reason: /role to viewer/,
  },
  {
    name: 'disabled',
    act: (u) => t.client.patch(`/api/users/${u.id}`, { disabled: true, ...REAUTH }),
    sseEnds: true,
    reason: /disabled/,
  },
  {
    name: 'deleted',
    act: (u) => t.client.request('DELETE', `/api/users/${u.id}`, REAUTH),
    sseEnds: true,
    reason: /deleted/,
  },
  {
    name: 'sessions ended by an admin',
    act: (u) => t.client.delete(`/api/users/${u.id}/sessions`),
    sseEnds: true,
    reason: /ended the sessions/,
  },
  { name: 'signed out', act: (u) => u.c.get('/api/auth/logout'), sseEnds: true, reason: /session .* has ended/ },
  {
    name: 'own password changed',
    act: (u) =>
      u.c.post('/api/auth/me', { username: u.email, password: `${u.password}-new`, current_password: u.password }),
    sseEnds: true,
    reason: /password of this account changed/,
  },
  {
    name: 'password reset by an admin (key)',
    viaKey: true,
    act: (u) => t.client.patch(`/api/users/${u.id}`, { password: 'reset-by-admin-pw', ...REAUTH }),
    sseEnds: true,
    reason: /reset the password/,
  },
  {
    name: 'API key revoked',
    viaKey: true,
    act: (u) => u.c.delete(`/api/auth/api/keys/${u.key.id}`),
    sseEnds: true,
    reason: /API key .* was revoked/,
  },
];

describe('live streams end when their user loses the right to them (hardening II #1)', () => {
  it.each(CASES)('$name: the terminal is hung up and the event stream ends', async (c) => {
    const u = await operator();
    const creds = c.viaKey ? byKey(u.key.token) : byCookie(u.c);
    const term = await Term.open(
      `${base.replace(/^http/, 'ws')}/api/apps/${box}/exec?shell=sh`,
      creds.headers,
      creds.protocols,
    );
    term.type('echo up-$((40+2))\r');
    await term.waitFor('up-42');
    const sse = await openStream(creds);
    await until(() => sse.blocks.length > 0, 'the event stream to start');

    // Typing on keeps the idle timeout fresh; it must not keep a revoked terminal alive.
    const typing = setInterval(() => term.ws.readyState === term.ws.OPEN && term.type(' '), 50);
    try {
      const res = await c.act(u);
      expect(res.status, res.text).toBe(200);
      const closed = await term.waitClosed();
      expect(closed.code).toBe(4003);
      expect(closed.reason).toMatch(c.reason);
    } finally {
      clearInterval(typing);
    }
    await until(() => execIds().length === 0, 'the hung-up shell to end');
    if (c.sseEnds) {
      await until(() => sse.ended, 'the event stream to end');
      expect(sse.end()).toMatchObject({ reason: 'revoked', detail: expect.stringMatching(c.reason) });
    } else {
      // A viewer may still read events: only streams needing more than the new role end.
      await new Promise((r) => setTimeout(r, 300));
      expect(sse.ended).toBe(false);
      expect(sse.end()).toBeUndefined();
    }
    sse.close();
  });
});

describe('the periodic check of stream holders (hardening II #1)', () => {
  it('ends a stream whose session ended where no revoke call is (it expired)', async () => {
    const u = await operator();
    const sse = await openStream(byCookie(u.c));
    await until(() => sse.blocks.length > 0, 'the event stream to start');
    expect(t.services.streams.sweep()).toBe(0);
    // As if the session had reached its end of life: time ends it, no call does.
    const sid = (await u.c.get<{ id: string; current: boolean }[]>('/api/auth/sessions')).body.find(
      (s) => s.current,
    )!.id;
    t.ctx.db
      .prepare('UPDATE sessions SET expires_at = ? WHERE id = ?')
      .run(new Date(Date.now() - 1000).toISOString(), sid);
    expect(t.services.streams.sweep()).toBe(1);
    await until(() => sse.ended, 'the event stream to end');
    expect(sse.end()).toMatchObject({ reason: 'revoked', detail: expect.stringMatching(/session .* has ended/) });
  });
});

describe('live stream caps (hardening II #17)', () => {
  it('refuses a user past 20 open streams with a 429 that says so, and takes one again once a stream closes', async () => {
    const u = await operator();
    const creds = byCookie(u.c);
    const open = await Promise.all(Array.from({ length: 20 }, () => openStream(creds)));
    const refused = await Stream.open(creds);
    expect(refused).toMatchObject({ status: 429, body: { code: 'too_many_requests' } });
    expect((refused as { body: ApiError }).body.detail).toMatch(/20 live streams open .*limit is 20/);
    // Terminals count against the same cap.
    const socket = await Term.open(
      `${base.replace(/^http/, 'ws')}/api/apps/${box}/exec`,
      creds.headers,
      creds.protocols,
    ).then(
      () => 'opened',
      (err: { status?: number }) => err.status,
    );
    expect(socket).toBe(429);
    open[0]!.close();
    await until(() => t.services.streams.count(u.id) === 19, 'the closed stream to give its place back');
    const again = await openStream(creds);
    for (const s of [...open, again]) s.close();
    await until(() => t.services.streams.count(u.id) === 0, 'every place to be given back');
  });

  it('caps the streams of all users together', async () => {
    const small = await createTestApp({ STREAMS_MAX_TOTAL: '3' });
    const smallBase = await listen(small.app);
    try {
      const creds: Credentials = { headers: { cookie: cookieHeader(small.client) }, protocols: [] };
      const url = `${smallBase}/api/events/stream`;
      const opened = await Promise.all(Array.from({ length: 3 }, () => fetch(url, { headers: creds.headers })));
      expect(opened.map((r) => r.status)).toEqual([200, 200, 200]);
      const refused = await fetch(url, { headers: creds.headers });
      expect(refused.status).toBe(429);
      expect(((await refused.json()) as ApiError).detail).toMatch(/STREAMS_MAX_TOTAL/);
      for (const r of opened) await r.body!.cancel();
    } finally {
      await small.close();
    }
  });
});
