import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import type { HostOverview, NewApiKey } from '@berth/contract';
import { cookieHeader, EngineLink, listen, SseReader, until } from './apps-fixtures';
import { createTestApp, REAUTH, type TestApp } from './helpers/app';
import { dockerCli, testEngine } from './helpers/engine';
import { cleanup, uniqueName } from './images-fixtures';

interface PromFamily {
  name: string;
  type: string;
  metrics: { labels?: Record<string, string>; value?: string }[];
}

describe('host overview and Prometheus metrics', () => {
  let t: TestApp;
  // Berth reaches the engine through a link that counts its calls.
  let link: EngineLink;
  const name = uniqueName('metrics');
  const other = uniqueName('metrics-new');

  beforeAll(async () => {
    link = new EngineLink(
      path.join(os.tmpdir(), `berth-t-host-${process.pid}.sock`),
      new URL(testEngine().dockerHost).pathname,
    );
    await link.up();
    t = await createTestApp({ DOCKER_HOST: `unix://${link.socketPath}` });
    dockerCli(['run', '-d', '--name', name, '--label', 'berth.test=1', testEngine().image, 'sleep', '600']);
  });
  afterAll(async () => {
    cleanup('container', name, other);
    await t?.close();
    await link?.down();
  });

  it('GET /api/host gives the host from /proc, the data root disk, counts and the engine version; the stream sends the same', async () => {
    const res = await t.client.get<HostOverview>('/api/host');
    expect(res.status, res.text).toBe(200);
    const h = res.body;
    expect(h.source).toBe('proc');
    expect(h.cpu_percent).toBeGreaterThanOrEqual(0);
    expect(h.cpu_percent).toBeLessThanOrEqual(100);
    expect(h.cpus).toBeGreaterThan(0);
    expect(h.mem_used).toBeGreaterThan(0);
    expect(h.mem_total).toBeGreaterThan(h.mem_used!);
    expect(h.disk!.total).toBeGreaterThan(h.disk!.used);
    expect(h.containers.running).toBeGreaterThanOrEqual(1);
    expect(h.engine_version).toBe(dockerCli(['version', '--format', '{{.Server.Version}}']).trim());

    const base = await listen(t.app);
    const stream = await SseReader.open(base, '/api/host/stream', cookieHeader(t.client));
    try {
      await stream.waitFor((r) => r.of<HostOverview>('update').length >= 1, 'a host overview');
      expect(stream.of<HostOverview>('update')[0]!.engine_version).toBe(h.engine_version);
    } finally {
      stream.close();
    }
  });

  it("the overview asks the engine's info again only after an event that can change a count", async () => {
    const events = t.services.environments.local.events;
    // Other tests share the engine: count the events that may change a count, and allow a read only after one.
    let changes = 0;
    const offContainers = events.subscribe((e) => {
      if (e.kind === 'resync' || ['create', 'start', 'die', 'destroy', 'pause', 'unpause'].includes(e.action))
        changes++;
    });
    const offObjects = events.subscribeObjects((e) => {
      if (e.type === 'image' || e.type === 'volume') changes++;
    });
    try {
      await events.whenConnected();
      // A container starts: the next answer reads the engine again (and its facts are fresh for what follows).
      let started = false;
      const offStart = events.subscribe((e) => {
        if (e.kind === 'container' && e.action === 'start' && e.name === other) started = true;
      });
      const since = Date.now();
      dockerCli(['run', '-d', '--name', other, '--label', 'berth.test=1', testEngine().image, 'sleep', '600']);
      await until(() => started, 'the start event of the new container');
      offStart();
      await new Promise((r) => setTimeout(r, 1100)); // past the one-second answer cache
      // Then, well within the facts' 30 s, answers past the one-second cache read only /proc unless
      // an event came (`mark`: the changes counted before the answer that last read the engine).
      let mark = changes;
      expect((await t.client.get('/api/host')).status).toBe(200);
      expect(link.count('GET /info', since)).toBeGreaterThanOrEqual(1);
      for (let round = 0; round < 3; round++) {
        const roundStart = Date.now();
        await new Promise((r) => setTimeout(r, 1100)); // past the one-second answer cache
        const next = changes;
        expect((await t.client.get('/api/host')).status).toBe(200);
        expect(link.count('GET /info', roundStart)).toBeLessThanOrEqual(changes === mark ? 0 : 1);
        mark = next;
      }
    } finally {
      offContainers();
      offObjects();
    }
  });

  it('GET /metrics wants an API key and gives Prometheus text naming the running apps', async () => {
    expect((await t.anon().get('/metrics')).status).toBe(401);
    const key = (await t.client.post<NewApiKey>('/api/auth/api/keys/new', { key_name: 'prometheus', ...REAUTH })).body;
    const scrape = async () => {
      const res = await t.anon().get('/metrics', { authorization: `Bearer ${key.token}` });
      expect(res.status, res.text).toBe(200);
      expect(res.headers['content-type']).toContain('text/plain');
      return parsePrometheusTextFormat(res.text) as PromFamily[];
    };
    const value = (families: PromFamily[], metric: string) =>
      families.find((f) => f.name === metric)?.metrics.find((m) => m.labels?.app === name)?.value;
    // The recorder samples every running app about once a second; the first sample comes after two readings.
    let families: PromFamily[] = [];
    await until(
      async () => value((families = await scrape()), 'berth_app_memory_bytes') !== undefined,
      'a sample of the app in the metrics',
    );
    expect(value(families, 'berth_app_running')).toBe('1');
    expect(Number(value(families, 'berth_app_cpu_percent'))).toBeGreaterThanOrEqual(0);
    expect(Number(value(families, 'berth_app_memory_bytes'))).toBeGreaterThan(0);
    const names = families.map((f) => f.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'berth_app_restarts_total',
        'berth_host_memory_total_bytes',
        'berth_containers',
        'process_cpu_seconds_total',
      ]),
    );
  });
});
