import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditEntry, AutoHealPolicy, Channel, Delivery, EngineEventRecord, TargetAutoHeal } from '@berth/contract';
import { createTestApp, type TestApp } from './helpers/app';
import { cleanup, failingHealthImage, uniqueName } from './images-fixtures';
import { inspect, runTicker, until } from './apps-fixtures';
import { dockerCli } from './helpers/engine';

// Issue 36: auto-heal restarts a container that stays unhealthy, with a cap, notified once.
let t: TestApp;
let receiver: http.Server;
const posts: string[] = [];
const containers: string[] = [];
const selfName = uniqueName('heal-self');
const name = uniqueName('heal');
// Kept across a restart of Berth (the give-up must outlive it).
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'berth-test-heal-'));
const env = { BERTH_CONTAINER_NAME: selfName, DATA_DIR: dataDir };

beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      posts.push(body);
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  // Berth "runs in" selfName: auto-heal must leave that container alone whatever its policy says.
  t = await createTestApp(env);
});

afterAll(async () => {
  cleanup('container', ...containers);
  await t?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
  await new Promise((r) => receiver.close(r));
});

const heal = (name: string) => t.client.get<TargetAutoHeal>(`/api/apps/${name}/auto-heal`);

describe('auto-heal', () => {
  it('keeps a global default off until set, and refuses a bad one', async () => {
    expect((await t.client.get<AutoHealPolicy>('/api/settings/auto-heal')).body.enabled).toBe(false);
    const bad = await t.client.request('PUT', '/api/settings/auto-heal', {
      enabled: true,
      checks: 0,
      max_restarts: 3,
      backoff_seconds: 5,
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: 'validation_error' });
    expect((await t.client.get<AutoHealPolicy>('/api/settings/auto-heal')).body.enabled).toBe(false);
    const service = await t.client.request<TargetAutoHeal>('PUT', '/api/compose/shop/services/web/auto-heal', {
      enabled: true,
      checks: 4,
      max_restarts: null,
      backoff_seconds: null,
    });
    expect(service.status, service.text).toBe(200);
    expect(service.body.effective).toEqual({ enabled: true, checks: 4, max_restarts: 3, backoff_seconds: 10 });
  });

  it('restarts an unhealthy app, stops at the cap and notifies once; never its own container', async () => {
    const port = (receiver.address() as AddressInfo).port;
    const channel = await t.client.post<Channel>('/api/notifications/channels', {
      name: 'heal hook',
      type: 'webhook',
      url: `http://127.0.0.1:${port}/hook`,
    });
    expect(channel.status, channel.text).toBe(200);
    for (const app of [name, selfName]) {
      const rule = await t.client.post('/api/notifications/rules', {
        event: 'auto_heal_gave_up',
        channels: [channel.body.id],
        scope: { app },
      });
      expect(rule.status, rule.text).toBe(200);
      const set = await t.client.request<TargetAutoHeal>('PUT', `/api/apps/${app}/auto-heal`, {
        enabled: true,
        checks: 2,
        max_restarts: 2,
        backoff_seconds: 0,
      });
      expect(set.status, set.text).toBe(200);
      expect(set.body.effective).toEqual({ enabled: true, checks: 2, max_restarts: 2, backoff_seconds: 0 });
    }
    const image = failingHealthImage();
    containers.push(name, selfName);
    runTicker(selfName, [], image);
    runTicker(name, [], image);
    const selfStarted = inspect<{ State: { StartedAt: string } }>(selfName).State.StartedAt;

    await until(async () => (await heal(name)).body.state.gave_up_at !== null, 'auto-heal to give up', 60_000);
    const state = (await heal(name)).body.state;
    expect(state.restarts_last_hour).toBe(2);
    expect(inspect<{ RestartCount: number }>(name).RestartCount).toBe(0);

    await until(() => posts.some((p) => p.includes(name)), 'the give-up notification');
    const gaveUp = posts.filter((p) => p.includes(name));
    expect(gaveUp).toHaveLength(1);
    expect(JSON.parse(gaveUp[0]!)).toMatchObject({ event: 'auto_heal_gave_up' });
    const deliveries = (await t.client.get<Delivery[]>('/api/notifications/history')).body;
    expect(deliveries.filter((d) => d.event === 'auto_heal_gave_up' && d.title.includes(name))).toHaveLength(1);

    const events = (await t.client.get<EngineEventRecord[]>(`/api/events?name=${name}`)).body;
    expect(events.filter((e) => e.action === 'auto-heal restart')).toHaveLength(2);
    const audit = (await t.client.get<AuditEntry[]>('/api/audit?user=auto-heal')).body;
    const entries = audit.filter((e) => e.target === name);
    expect(entries).toHaveLength(2);
    expect(entries[0]).toMatchObject({ user: 'auto-heal', route: 'auto-heal restart', status: 200 });

    // Berth's own container was unhealthy all along, with the same policy: never restarted.
    expect((await heal(selfName)).body.state.restarts_last_hour).toBe(0);
    expect(inspect<{ State: { StartedAt: string; Health: { Status: string } } }>(selfName).State).toMatchObject({
      StartedAt: selfStarted,
      Health: { Status: 'unhealthy' },
    });
    expect(posts.some((p) => p.includes(selfName))).toBe(false);
  }, 90_000);

  it('keeps the give-up across a restart of Berth without notifying again, until it is reset', async () => {
    const before = (await heal(name)).body.state;
    expect(before.gave_up_at).not.toBeNull();
    await t.close();
    t = await createTestApp(env);
    expect((await heal(name)).body.state).toEqual(before);

    // Restarted by hand, it turns unhealthy again (a new `unhealthy` event): auto-heal stays given up.
    const since = new Date().toISOString();
    dockerCli(['restart', '-t', '0', name]);
    const unhealthy = async () =>
      (await t.client.get<EngineEventRecord[]>(`/api/events?name=${name}`)).body.some(
        (e) => e.action === 'health_status: unhealthy' && e.time > since,
      );
    await until(unhealthy, 'the container to turn unhealthy again', 30_000);
    // Two of its 1 s probes later a forgotten give-up would have notified again (checks: 2).
    await new Promise((r) => setTimeout(r, 3000));
    expect(posts.filter((p) => p.includes(name))).toHaveLength(1);
    expect((await heal(name)).body.state).toEqual(before);

    const reset = await t.client.post<TargetAutoHeal>(`/api/apps/${name}/auto-heal/reset`, {});
    expect(reset.status, reset.text).toBe(200);
    expect(reset.body.state).toEqual({ restarts_last_hour: 0, last_restart_at: null, gave_up_at: null });
    const audit = (await t.client.get<AuditEntry[]>('/api/audit')).body;
    expect(audit.find((e) => e.method === 'POST' && e.route === '/api/apps/{name}/auto-heal/reset')).toMatchObject({
      target: name,
      status: 200,
    });
    // Still unhealthy, with no new event: the reset itself has auto-heal look at it again.
    await until(async () => (await heal(name)).body.state.restarts_last_hour > 0, 'auto-heal to restart again', 30_000);
  }, 60_000);
});
