import crypto, { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import type { Channel, Delivery, EngineEventRecord, Rule } from '@berth/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, REAUTH, type TestApp } from './helpers/app';
import { removeContainersNamed, testEngine, tryDockerCli } from './helpers/engine';
import { until } from './apps-fixtures';

const PREFIX = `berth-ntf-${randomBytes(3).toString('hex')}`;
const HEADER_SECRET = `hdr-${randomBytes(8).toString('hex')}`;
const SIGNING_SECRET = `sig-${randomBytes(8).toString('hex')}`;
const SMTP_PASSWORD = `smtp-${randomBytes(8).toString('hex')}`;
const SECRETS = [HEADER_SECRET, SIGNING_SECRET, SMTP_PASSWORD];

interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}
interface Mail {
  user: string | undefined;
  text: string;
}

let t: TestApp;
let receiver: http.Server;
let hookBase: string;
let smtp: SMTPServer;
let smtpPort: number;
const posts: Received[] = [];
const mails: Mail[] = [];
/** Every password an SMTP client offered the server. */
const smtpPasswords: string[] = [];
const channels = {} as Record<'hook' | 'mail' | 'failing', Channel>;

const hooksFor = (app: string) => posts.filter((p) => p.path === '/hook' && p.body.includes(app));
const mailsFor = (app: string) => mails.filter((m) => m.text.includes(app));
const deliveries = async () => (await t.client.get<Delivery[]>('/api/notifications/history?limit=1000')).body;

async function addChannel(body: Record<string, unknown>): Promise<Channel> {
  const res = await t.client.post<Channel>('/api/notifications/channels', body);
  expect(res.status, res.text).toBe(200);
  return res.body;
}
async function addRule(body: Record<string, unknown>): Promise<Rule> {
  const res = await t.client.post<Rule>('/api/notifications/rules', body);
  expect(res.status, res.text).toBe(200);
  return res.body;
}
async function dieEvents(name: string): Promise<number> {
  return (await t.client.get<EngineEventRecord[]>(`/api/events?name=${name}&action=die`)).body.length;
}

beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      posts.push({ path: req.url ?? '', headers: req.headers, body });
      res.statusCode = req.url === '/fail' ? 500 : 200;
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  hookBase = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;

  smtp = new SMTPServer({
    secure: false,
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    authOptional: true,
    logger: false,
    onAuth(auth, _session, cb) {
      smtpPasswords.push(auth.password ?? '');
      if (auth.password === SMTP_PASSWORD) cb(null, { user: auth.username });
      else cb(new Error('bad password'));
    },
    onData(stream, session, cb) {
      let text = '';
      stream.on('data', (c: Buffer) => (text += c.toString()));
      stream.on('end', () => {
        mails.push({ user: session.user as string | undefined, text });
        cb();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  smtpPort = (smtp.server.address() as AddressInfo).port;

  t = await createTestApp({ NOTIFY_RETRY_SECONDS: '0.2,0.3' });
  await t.services.environments.get('local').events.whenConnected(10_000);

  channels.hook = await addChannel({
    name: 'hook',
    type: 'webhook',
    url: `${hookBase}/hook`,
    header_name: 'X-Token',
    header_value: HEADER_SECRET,
    signing_secret: SIGNING_SECRET,
  });
  channels.mail = await addChannel({
    name: 'mail',
    type: 'email',
    host: '127.0.0.1',
    port: smtpPort,
    tls: 'none',
    user: 'berth',
    password: SMTP_PASSWORD,
    from: 'berth@example.test',
    to: 'ops@example.test',
  });
  channels.failing = await addChannel({ name: 'failing', type: 'webhook', url: `${hookBase}/fail` });
  await addRule({
    event: 'container_died',
    channels: [channels.hook.id, channels.mail.id],
    scope: { environment: 'local' },
    quiet_minutes: 30,
  });
  await addRule({ event: 'oom', channels: [channels.hook.id] });
  await addRule({ event: 'compose_failed', channels: [channels.failing.id] });
});

afterAll(async () => {
  removeContainersNamed(PREFIX);
  await t?.close();
  await new Promise((resolve) => receiver?.close(resolve));
  await new Promise((resolve) => smtp?.close(() => resolve(undefined)));
});

describe('notifications', () => {
  it('sends one webhook and one email naming the app and its exit code, once however often it flaps', async () => {
    const name = `${PREFIX}-exit1`;
    expect(
      tryDockerCli(['run', '--name', name, '--label', 'berth.test=1', testEngine().image, 'sh', '-c', 'exit 1']).status,
    ).toBe(1);
    await until(() => hooksFor(name).length === 1 && mailsFor(name).length === 1, 'the webhook and the email', 20_000);

    const hook = hooksFor(name)[0]!;
    const payload = JSON.parse(hook.body) as { event: string; app: string; details: Record<string, string> };
    expect(payload).toMatchObject({
      event: 'container_died',
      app: name,
      environment: 'local',
      details: { exit_code: '1' },
    });
    expect(hook.headers['x-token']).toBe(HEADER_SECRET);
    expect(hook.headers['x-berth-signature']).toBe(
      `sha256=${crypto.createHmac('sha256', SIGNING_SECRET).update(hook.body).digest('hex')}`,
    );
    // The diagnosis in one line rides along.
    expect(payload.details.diagnosis).toBe('Error: the main process exited with code 1.');
    const mail = mailsFor(name)[0]!;
    expect(mail.user).toBe('berth');
    expect(mail.text).toMatch(/exit code 1/);
    expect(mail.text).toContain('Error: the main process exited with code 1.');

    // It dies twice more within the quiet period: the events are kept, no new delivery is made.
    for (let i = 0; i < 2; i++) tryDockerCli(['start', '-a', name]);
    await until(async () => (await dieEvents(name)) === 3, 'three die events');
    const mine = (await deliveries()).filter((d) => d.title.includes(name));
    expect(mine.map((d) => d.channel_name).sort()).toEqual(['hook', 'mail']);
  });

  it('sends an OOM notification for a container killed for memory', async () => {
    const name = `${PREFIX}-oom`;
    tryDockerCli([
      'run',
      '--name',
      name,
      '--label',
      'berth.test=1',
      '--memory',
      '8m',
      '--memory-swap',
      '8m',
      testEngine().image,
      'tail',
      '/dev/zero',
    ]);
    await until(
      () => hooksFor(name).some((p) => (JSON.parse(p.body) as { event: string }).event === 'oom'),
      'the OOM webhook',
      30_000,
    );
    const oom = hooksFor(name).map((p) => JSON.parse(p.body) as { event: string; details: Record<string, string> });
    expect(oom.find((p) => p.event === 'oom')!.details.diagnosis).toMatch(/out of memory/);
  });

  it('retries a receiver that answers 500 and shows the delivery failed with its error', async () => {
    const before = posts.filter((p) => p.path === '/fail').length;
    t.services.notifications.notify({
      event: 'compose_failed',
      environment: 'local',
      project: `${PREFIX}-proj`,
      title: `${PREFIX}-proj failed`,
      message: 'up failed',
      details: {},
    });
    await until(
      async () => (await deliveries()).some((d) => d.title === `${PREFIX}-proj failed` && d.status === 'failed'),
      'the failed delivery',
    );
    const d = (await deliveries()).find((x) => x.title === `${PREFIX}-proj failed`)!;
    expect(d).toMatchObject({ channel_name: 'failing', attempts: 3, status: 'failed' });
    expect(d.error).toMatch(/500/);
    expect(posts.filter((p) => p.path === '/fail').length - before).toBe(3);
  });

  it("reports a restart loop once the rule's number of starts falls within its window", async () => {
    await addRule({ event: 'restart_loop', channels: [channels.failing.id], restarts: 3, within_minutes: 5 });
    const app = `${PREFIX}-loop`;
    const loop = (starts: number[]) =>
      t.services.notifications.notify({
        event: 'restart_loop',
        environment: 'local',
        app,
        title: `${app} loops`,
        message: '',
        details: {},
        starts,
      });
    const now = Date.now();
    loop([now - 20 * 60_000, now - 10 * 60_000, now]);
    loop([now - 1000, now]);
    expect((await deliveries()).filter((d) => d.title === `${app} loops`)).toHaveLength(0);
    loop([now - 2000, now - 1000, now]);
    expect((await deliveries()).filter((d) => d.title === `${app} loops`)).toHaveLength(1);
  });

  it('delivers a test message at once, keeps secrets on edit, and never shows a secret', async () => {
    const test = await t.client.post<Delivery>(`/api/notifications/channels/${channels.hook.id}/test`);
    expect(test.status, test.text).toBe(200);
    expect(test.body).toMatchObject({ status: 'sent', attempts: 1, event: 'test' });
    expect(
      posts.some(
        (p) =>
          p.path === '/hook' && p.body.includes('Test message from Berth') && p.headers['x-token'] === HEADER_SECRET,
      ),
    ).toBe(true);
    const mailTest = await t.client.post<Delivery>(`/api/notifications/channels/${channels.mail.id}/test`);
    expect(mailTest.body.status, mailTest.body.error ?? '').toBe('sent');

    const renamed = await t.client.request<Channel>('PATCH', `/api/notifications/channels/${channels.hook.id}`, {
      name: 'hook-renamed',
    });
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.body.secrets_set.sort()).toEqual(['header_value', 'signing_secret']);
    const cleared = await t.client.request<Channel>('PATCH', `/api/notifications/channels/${channels.hook.id}`, {
      signing_secret: null,
    });
    expect(cleared.body.secrets_set).toEqual(['header_value']);
    expect(
      (await t.client.request('PATCH', `/api/notifications/channels/${channels.hook.id}`, { type: 'slack' })).status,
    ).toBe(400);

    const blocked = await t.client.post('/api/notifications/channels', {
      name: 'meta',
      type: 'webhook',
      url: 'http://169.254.169.254/latest',
    });
    expect(blocked.status).toBe(400);
    expect((blocked.body as { code: string }).code).toBe('blocked_address');
    expect((await t.client.post('/api/notifications/rules', { event: 'oom', channels: [99999] })).status).toBe(400);

    const reads = await Promise.all(
      [
        '/api/notifications/channels',
        '/api/notifications/rules',
        '/api/notifications/history',
        '/api/audit?limit=10000',
        '/api/audit/export?format=csv',
      ].map((p) => t.client.get(p)),
    );
    const seen = [renamed.text, cleared.text, ...reads.map((r) => r.text)].join('\n');
    for (const s of SECRETS) expect(seen).not.toContain(s);
    expect(JSON.stringify(t.ctx.db.prepare('SELECT * FROM notification_channels').all())).not.toContain(SMTP_PASSWORD);
  });
});

describe('where a channel sends and who reads it (issue 38 #9, #13)', () => {
  it('drops the stored secrets when the destination changes, unless they are sent again', async () => {
    const header = `hdr-move-${randomBytes(6).toString('hex')}`;
    const signing = `sig-move-${randomBytes(6).toString('hex')}`;
    const hook = await addChannel({
      name: 'moving-hook',
      type: 'webhook',
      url: `${hookBase}/before`,
      header_name: 'X-Token',
      header_value: header,
      signing_secret: signing,
    });
    const moved = await t.client.patch<Channel>(`/api/notifications/channels/${hook.id}`, { url: `${hookBase}/after` });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body.secrets_set).toEqual([]);
    expect((await t.client.post<Delivery>(`/api/notifications/channels/${hook.id}/test`)).body.status).toBe('sent');
    const atNew = posts.filter((p) => p.path === '/after');
    expect(atNew).toHaveLength(1);
    expect(atNew[0]!.headers['x-token']).toBeUndefined();
    expect(atNew[0]!.headers['x-berth-signature']).toBeUndefined();
    expect(JSON.stringify(atNew)).not.toContain(header);

    // Sent again with the move, a secret stays; a change elsewhere (the name) keeps them all.
    const again = await t.client.patch<Channel>(`/api/notifications/channels/${hook.id}`, {
      url: `${hookBase}/again`,
      header_value: header,
    });
    expect(again.body.secrets_set).toEqual(['header_value']);
    const renamed = await t.client.patch<Channel>(`/api/notifications/channels/${hook.id}`, { name: 'moved-hook' });
    expect(renamed.body.secrets_set).toEqual(['header_value']);

    const password = `smtp-move-${randomBytes(6).toString('hex')}`;
    const mail = await addChannel({
      name: 'moving-mail',
      type: 'email',
      host: '127.0.0.1',
      port: smtpPort,
      tls: 'none',
      user: 'berth',
      password,
      from: 'berth@example.test',
      to: 'ops@example.test',
    });
    expect(mail.secrets_set).toEqual(['password']);
    const rehosted = await t.client.patch<Channel>(`/api/notifications/channels/${mail.id}`, { host: 'localhost' });
    expect(rehosted.body.secrets_set).toEqual([]);
    await t.client.post<Delivery>(`/api/notifications/channels/${mail.id}/test`);
    expect(smtpPasswords).not.toContain(password);
  });

  it('shows a viewer a webhook URL up to its host and no ntfy topic; an admin sees them whole', async () => {
    const token = `tok${randomBytes(6).toString('hex')}`;
    await addChannel({ name: 'tokened', type: 'webhook', url: `${hookBase}/hooks/${token}?key=${token}` });
    const topic = `topic-${randomBytes(6).toString('hex')}`;
    await addChannel({ name: 'ntfy-topic', type: 'ntfy', url: hookBase, topic });
    const email = `ntf-viewer-${randomBytes(3).toString('hex')}@berth.test`;
    const password = `pw-${randomBytes(8).toString('hex')}`;
    const made = await t.client.post('/api/users', { email, password, role: 'viewer', ...REAUTH });
    expect(made.status, made.text).toBe(200);
    const viewer = t.anon();
    await viewer.login(email, password);
    const seen = await viewer.get<Channel[]>('/api/notifications/channels');
    expect(seen.status).toBe(200);
    expect(seen.text).not.toContain(token);
    expect(seen.text).not.toContain(topic);
    expect(seen.body.find((c) => c.name === 'tokened')!.url).toBe(`${hookBase}/••••`);
    expect(seen.body.find((c) => c.name === 'ntfy-topic')).toMatchObject({ url: `${hookBase}/`, topic: '••••' });
    const admin = (await t.client.get<Channel[]>('/api/notifications/channels')).text;
    expect(admin).toContain(token);
    expect(admin).toContain(topic);
  });
});
