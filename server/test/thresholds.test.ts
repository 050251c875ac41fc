import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Channel, Rule } from '@berth/contract';
import { createTestApp, type TestApp } from './helpers/app';
import { dockerCli, testEngine } from './helpers/engine';
import { cleanup, uniqueName } from './images-fixtures';
import { runTicker, until } from './apps-fixtures';

// Issue 36: a CPU threshold rule fires once for a spinning container, and again only after it recovered;
// so do the host rules (CPU, memory, disk of DATA_DIR and of the engine's data root) and the
// volume-size rule, driven across their thresholds by editing the threshold (one server, one receiver).
let t: TestApp;
let receiver: http.Server;
let channelId: number;
const posts: { event: string; details: Record<string, unknown> }[] = [];
const name = uniqueName('spin');
const volume = uniqueName('vol');

beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      posts.push(JSON.parse(body) as (typeof posts)[number]);
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  t = await createTestApp({ THRESHOLD_CHECK_SECONDS: '0.5' });
  const port = (receiver.address() as AddressInfo).port;
  const channel = await t.client.post<Channel>('/api/notifications/channels', {
    name: 'threshold hook',
    type: 'webhook',
    url: `http://127.0.0.1:${port}/hook`,
  });
  expect(channel.status, channel.text).toBe(200);
  channelId = channel.body.id;
});

afterAll(async () => {
  cleanup('container', name);
  cleanup('volume', volume);
  await t?.close();
  await new Promise((r) => receiver.close(r));
});

const states = (state: string) => posts.filter((p) => p.details.subject === name && p.details.state === state);

describe('threshold rules', () => {
  it('refuses a threshold rule without its threshold, and fires once per episode above it', async () => {
    const rule = { event: 'app_cpu', channels: [channelId], scope: { app: name }, quiet_minutes: 0 };
    const missing = await t.client.post('/api/notifications/rules', rule);
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ code: 'validation_error' });
    expect((await t.client.get<Rule[]>('/api/notifications/rules')).body.filter((r) => r.event === 'app_cpu')).toEqual(
      [],
    );
    // Above 10 % of its limit of half a core for 3 s (low: the shared machine may give the spinner little).
    const added = await t.client.post<Rule>('/api/notifications/rules', { ...rule, threshold: 10, for_minutes: 0.05 });
    expect(added.status, added.text).toBe(200);
    expect(added.body).toMatchObject({ threshold: 10, for_minutes: 0.05, of: 'limit' });

    // Spins while /tmp/idle is absent, idles while it is there.
    runTicker(name, ['--cpus', '0.5'], testEngine().image, 'while :; do if [ -f /tmp/idle ]; then sleep 1; fi; done');
    await until(() => states('firing').length === 1, 'the rule to fire', 60_000);
    expect(posts.find((p) => p.details.subject === name)).toMatchObject({ event: 'app_cpu' });

    dockerCli(['exec', name, 'touch', '/tmp/idle']);
    await until(() => states('recovered').length === 1, 'the app to recover', 60_000);
    expect(states('firing')).toHaveLength(1);

    dockerCli(['exec', name, 'rm', '/tmp/idle']);
    await until(() => states('firing').length === 2, 'the rule to fire again', 60_000);
    expect(states('recovered')).toHaveLength(1);
  }, 120_000);

  it('fires host and volume-size rules once above their threshold, and again only after they recovered', async () => {
    // A volume holding 64 KiB, there before the first disk-usage call (made at most every 10 minutes).
    dockerCli(['volume', 'create', volume]);
    dockerCli(['run', '--rm', '-v', `${volume}:/d`, testEngine().image, 'sh', '-c', 'head -c 65536 /dev/zero > /d/f']);
    const kinds = ['host_cpu', 'host_memory', 'data_disk', 'engine_disk', 'volume_size'] as const;
    // Above 0 % (1 byte for the volume) always; never above 100 % (a million GB).
    const low = (k: (typeof kinds)[number]) => (k === 'volume_size' ? 1e-9 : 0);
    const high = (k: (typeof kinds)[number]) => (k === 'volume_size' ? 1_000_000 : 100);
    const subject = (k: (typeof kinds)[number]) => (k === 'volume_size' ? volume : 'host');
    const seen = (k: (typeof kinds)[number], state: string) =>
      posts.filter((p) => p.event === k && p.details.subject === subject(k) && p.details.state === state).length;
    const add = async (k: (typeof kinds)[number], threshold: number) => {
      const scope = k === 'volume_size' ? { volume } : {};
      const r = await t.client.post<Rule>('/api/notifications/rules', {
        event: k,
        channels: [channelId],
        scope,
        quiet_minutes: 0,
        threshold,
        for_minutes: 0,
      });
      expect(r.status, r.text).toBe(200);
      return r.body;
    };
    const firing = Object.fromEntries(await Promise.all(kinds.map(async (k) => [k, await add(k, low(k))] as const)));
    await Promise.all(kinds.map((k) => add(k, high(k))));
    const all = (state: string, n: number) => kinds.every((k) => seen(k, state) === n);

    await until(() => all('firing', 1), 'every low rule to fire', 30_000);
    // Several more checks (0.5 s apart) while still above: no second firing.
    await new Promise((r) => setTimeout(r, 2500));
    expect(kinds.map((k) => [k, seen(k, 'firing'), seen(k, 'recovered')])).toEqual(kinds.map((k) => [k, 1, 0]));
    // The rules at 100 % (a million GB) said nothing.
    expect(posts.filter((p) => kinds.some((k) => p.event === k && p.details.threshold === high(k)))).toEqual([]);

    // Raised above the reading: each says it recovered, once, and does not fire.
    for (const k of kinds) {
      const up = await t.client.request('PATCH', `/api/notifications/rules/${firing[k]!.id}`, { threshold: high(k) });
      expect(up.status, up.text).toBe(200);
    }
    await until(() => all('recovered', 1), 'every rule to recover', 30_000);
    // Lowered again: each fires a second time.
    for (const k of kinds) {
      const down = await t.client.request('PATCH', `/api/notifications/rules/${firing[k]!.id}`, { threshold: low(k) });
      expect(down.status, down.text).toBe(200);
    }
    await until(() => all('firing', 2), 'every rule to fire again', 30_000);
    expect(kinds.map((k) => seen(k, 'recovered'))).toEqual(kinds.map(() => 1));
    const volumeFired = posts.find((p) => p.event === 'volume_size' && p.details.subject === volume);
    expect(volumeFired?.details).toMatchObject({ environment: 'local', threshold: 1e-9 });
  }, 120_000);
});
