import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  ApiError,
  LogEntry,
  ServiceDetail,
  StackDetail,
  TemplateDetail,
  SwarmNode,
  SwarmObject,
  SwarmService,
  SwarmStack,
  SwarmSummary,
  SwarmTask,
} from '@berth/contract';
import { createTestApp, type TestApp } from './helpers/app';
import { testEngine } from './helpers/engine';
import { cookieHeader, listen, SseReader, until } from './apps-fixtures';
import { json, startCatalogueServer, type CatalogueServer } from './templates-fixtures';

/**
 * Swarm against the harness's own single-node swarm engine (scripts/test-env.sh starts it and
 * exports BERTH_TEST_SWARM_HOST). The app's `local` environment is that engine here.
 */
function swarmHost(): string {
  const host = process.env.BERTH_TEST_SWARM_HOST;
  if (!host)
    throw new Error(
      'BERTH_TEST_SWARM_HOST is unset: run `npm test` (scripts/test-env.sh starts the swarm engine) or source .test-env/env.sh',
    );
  return host;
}

/** The docker CLI on the swarm engine (our own view, independent of the server). */
function swarmCli(args: string[]): string {
  const res = spawnSync(process.env.BERTH_TEST_DOCKER_CLI || 'docker', ['--host', swarmHost(), ...args], {
    encoding: 'utf8',
    timeout: 60_000,
  });
  return res.status === 0 ? res.stdout : '';
}

const id = randomBytes(3).toString('hex');
const svc = `berth-t-svc-${id}`;
const stack = `berth-t-stack-${id}`;
const secret = `berth-t-secret-${id}`;
const config = `berth-t-config-${id}`;
const SECRET_VALUE = `s3cret-${id}`;
const WAIT_MS = 60_000;
const MIB = 1024 * 1024;

interface EngineSpec {
  TaskTemplate: { ContainerSpec: { Mounts?: unknown[] }; Resources?: unknown; RestartPolicy?: unknown };
  UpdateConfig?: unknown;
}

let t: TestApp;
let base: string;
let nodeId = '';
let cat: CatalogueServer;
const templated = `berth-t-tstack-${id}`;
const readers: SseReader[] = [];

const running = async (ref: string) =>
  (await t.client.get<SwarmTask[]>(`/api/swarm/services/${ref}/tasks`)).body.filter(
    (x) => x.state === 'running' && x.desiredState === 'running',
  );
const untilRunning = (ref: string, n: number, check: (tasks: SwarmTask[]) => boolean = () => true) =>
  until(
    async () => {
      const tasks = await running(ref);
      return tasks.length === n && check(tasks);
    },
    `${n} running tasks of ${ref}`,
    WAIT_MS,
  );
const detail = async (ref: string) => (await t.client.get<ServiceDetail>(`/api/swarm/services/${ref}`)).body;

beforeAll(async () => {
  t = await createTestApp({ DOCKER_HOST: swarmHost(), TEMPLATE_FETCH_ALLOW_LOOPBACK: 'true' });
  base = await listen(t.app);
  cat = await startCatalogueServer();
});

afterAll(async () => {
  for (const r of readers) r.close();
  if (nodeId) swarmCli(['node', 'update', '--availability', 'active', nodeId]);
  swarmCli(['stack', 'rm', stack]);
  swarmCli(['service', 'rm', svc]);
  await until(
    () => !swarmCli(['service', 'ls', '-q', '--filter', `name=${svc}`]).trim(),
    'service removal',
    WAIT_MS,
  ).catch(() => undefined);
  swarmCli(['secret', 'rm', secret]);
  swarmCli(['config', 'rm', config]);
  swarmCli(['stack', 'rm', templated]);
  await t?.close();
  await cat?.close();
});

describe('swarm', () => {
  it('tells the swarm and its one manager node, without join tokens', async () => {
    const res = await t.client.get<SwarmSummary>('/api/swarm');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ managers: 1, nodes: 1 });
    expect(res.text).not.toMatch(/SWMTKN|BEGIN CERTIFICATE/);
    const nodes = await t.client.get<SwarmNode[]>('/api/swarm/nodes');
    expect(nodes.body).toHaveLength(1);
    expect(nodes.body[0]).toMatchObject({ role: 'manager', availability: 'active', leader: true, state: 'ready' });
    nodeId = nodes.body[0]!.id;
  });

  it('refuses a bad service form with the field named, creating nothing', async () => {
    const res = await t.client.post<ApiError>('/api/swarm/services', { name: svc, image: '', replicas: -1 });
    expect(res.status).toBe(400);
    expect(res.body.detail).toMatch(/image|replicas/);
    const unknownSecret = await t.client.post<ApiError>('/api/swarm/services', {
      name: svc,
      image: testEngine().image,
      secrets: ['no-such-secret'],
    });
    expect(unknownSecret.status).toBe(400);
    expect(unknownSecret.body.fields?.[0]?.field).toBe('secrets');
    expect(swarmCli(['service', 'ls', '-q', '--filter', `name=${svc}`]).trim()).toBe('');
  });

  it('creates a service with 2 replicas, scales it to 3 and back, and refuses a stale version', async () => {
    const created = await t.client.post<ServiceDetail>('/api/swarm/services', {
      name: svc,
      image: testEngine().image,
      replicas: 2,
      command: ['sh', '-c', `trap 'exit 0' TERM; echo hello-${id}; echo oops-${id} >&2; sleep 600 & wait`],
      env: { GREETING: 'hi' },
      labels: { 'berth.test': id },
      mounts: [
        { type: 'tmpfs', target: '/scratch' },
        { type: 'bind', source: '/tmp', target: '/host-tmp', readOnly: true },
      ],
      resources: { cpuLimit: 0.5, memoryLimitBytes: 64 * MIB, memoryReservationBytes: 8 * MIB },
      updatePolicy: {
        parallelism: 0,
        monitorSeconds: 0.1,
        failureAction: 'pause',
        order: 'stop-first',
        delaySeconds: 0,
      },
      restartPolicy: { condition: 'on-failure', delaySeconds: 1, maxAttempts: 3, windowSeconds: 30 },
    });
    expect(created.status, created.text).toBe(200);
    expect(created.body).toMatchObject({
      name: svc,
      mode: 'replicated',
      envNames: ['GREETING'],
      replicas: { desired: 2 },
      resources: { cpuLimit: 0.5, memoryLimitBytes: 64 * MIB, cpuReservation: null, memoryReservationBytes: 8 * MIB },
      restartPolicy: { condition: 'on-failure', delaySeconds: 1, maxAttempts: 3, windowSeconds: 30 },
    });
    expect(created.text).not.toContain('"hi"');
    // The engine's own view of the spec.
    const spec = (JSON.parse(swarmCli(['service', 'inspect', svc])) as { Spec: EngineSpec }[])[0]!.Spec;
    expect(spec.TaskTemplate.ContainerSpec.Mounts).toEqual([
      { Type: 'tmpfs', Target: '/scratch' },
      { Type: 'bind', Source: '/tmp', Target: '/host-tmp', ReadOnly: true },
    ]);
    expect(spec.TaskTemplate.Resources).toEqual({
      Limits: { NanoCPUs: 500_000_000, MemoryBytes: 64 * MIB },
      Reservations: { MemoryBytes: 8 * MIB },
    });
    expect(spec.TaskTemplate.RestartPolicy).toEqual({
      Condition: 'on-failure',
      Delay: 1e9,
      MaxAttempts: 3,
      Window: 30e9,
    });
    expect(spec.UpdateConfig).toMatchObject({ Parallelism: 0, FailureAction: 'pause', Order: 'stop-first' });
    await untilRunning(svc, 2);
    const listed = (await t.client.get<SwarmService[]>('/api/swarm/services')).body.find((s) => s.name === svc);
    expect(listed?.replicas).toEqual({ running: 2, desired: 2 });

    const v = created.body.version;
    const up = await t.client.post<ServiceDetail>(`/api/swarm/services/${svc}`, {
      version: (await detail(svc)).version,
      replicas: 3,
    });
    expect(up.status, up.text).toBe(200);
    await untilRunning(svc, 3);
    const stale = await t.client.post<ApiError>(`/api/swarm/services/${svc}`, { version: v, replicas: 1 });
    expect(stale.status).toBe(409);
    expect((await detail(svc)).replicas.desired).toBe(3);
    await t.client.post(`/api/swarm/services/${svc}`, { version: (await detail(svc)).version, replicas: 2 });
    await untilRunning(svc, 2);
  });

  it('streams real log lines of the service, in the app logs contract', async () => {
    const logs = await SseReader.open(base, `/api/swarm/services/${svc}/logs`, cookieHeader(t.client));
    readers.push(logs);
    await logs.waitFor((r) => r.updates().some((l) => l.includes(`hello-${id}`)), 'a log line', WAIT_MS);
    logs.close();

    // A range that ends now: json batches with times, stdout told from stderr, then `end`.
    const until = new Date().toISOString();
    const past = await SseReader.open(
      base,
      `/api/swarm/services/${svc}/logs?tail=5&timestamps=1&format=json&until=${until}`,
      cookieHeader(t.client),
    );
    readers.push(past);
    await past.waitFor((r) => r.of('end').length === 1, 'the end of the range', WAIT_MS);
    const lines = past.of<LogEntry[]>('lines').flat();
    expect(lines.find((l) => l.line === `hello-${id}`)).toMatchObject({
      stream: 'stdout',
      ts: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    expect(lines.find((l) => l.line === `oops-${id}`)).toMatchObject({ stream: 'stderr' });
    expect(lines.every((l) => Date.parse(l.ts!) <= Date.parse(until))).toBe(true);
    const bad = await t.client.get<ApiError>(`/api/swarm/services/${svc}/logs?since=yesterday`);
    expect(bad.status).toBe(400);
  });

  it('updates the image and rolls it back', async () => {
    const latest = testEngine().image;
    const digest = swarmCli(['image', 'inspect', '--format', '{{index .RepoDigests 0}}', latest]).trim();
    expect(digest).toMatch(/@sha256:/);
    const updated = await t.client.post<ServiceDetail>(`/api/swarm/services/${svc}`, {
      version: (await detail(svc)).version,
      image: digest,
    });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body.image).toBe(digest);
    await untilRunning(svc, 2, (tasks) => tasks.every((x) => x.image === digest));
    await until(async () => (await detail(svc)).updateStatus?.state === 'completed', 'the update to complete', WAIT_MS);
    const back = await t.client.post<ServiceDetail>(`/api/swarm/services/${svc}/rollback`);
    expect(back.status, back.text).toBe(200);
    expect(back.body.image).toBe(latest);
    await untilRunning(svc, 2, (tasks) => tasks.every((x) => x.image === latest));
    // The engine bumps the version as the rollback finishes; the next edit reads it after that.
    await until(
      async () => (await detail(svc)).updateStatus?.state === 'rollback_completed',
      'the rollback to complete',
      WAIT_MS,
    );
  });

  it('keeps secret values write-only and refuses to delete a secret in use', async () => {
    const made = await t.client.post<SwarmObject[]>('/api/swarm/secrets', { name: secret, data: SECRET_VALUE });
    expect(made.status, made.text).toBe(200);
    expect(made.text).not.toContain(SECRET_VALUE);
    const cfg = await t.client.post<SwarmObject[]>('/api/swarm/configs', { name: config, data: 'key=value\n' });
    expect(cfg.body.find((c) => c.name === config)).toMatchObject({ usedBy: [] });
    const used = await t.client.post<ServiceDetail>(`/api/swarm/services/${svc}`, {
      version: (await detail(svc)).version,
      secrets: [secret],
    });
    expect(used.status, used.text).toBe(200);
    expect(used.body.secrets).toEqual([secret]);
    const listed = (await t.client.get<SwarmObject[]>('/api/swarm/secrets')).body.find((s) => s.name === secret);
    expect(listed?.usedBy).toEqual([svc]);
    const refused = await t.client.delete<ApiError>(`/api/swarm/secrets/${secret}`);
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toContain(svc);
    const removed = await t.client.delete<SwarmObject[]>(`/api/swarm/configs/${config}`);
    expect(removed.status).toBe(200);
    expect(removed.body.some((c) => c.name === config)).toBe(false);
  });

  it('drains the node so the tasks leave, and brings them back when active', async () => {
    const labelled = await t.client.post<SwarmNode>(`/api/swarm/nodes/${nodeId}`, { labels: { 'berth.test': id } });
    expect(labelled.body.labels).toEqual({ 'berth.test': id });
    expect((await t.client.post<SwarmNode>(`/api/swarm/nodes/${nodeId}`, { labels: {} })).body.labels).toEqual({});
    const drained = await t.client.post<SwarmNode>(`/api/swarm/nodes/${nodeId}`, { availability: 'drain' });
    expect(drained.body.availability).toBe('drain');
    await untilRunning(svc, 0);
    await t.client.post<SwarmNode>(`/api/swarm/nodes/${nodeId}`, { availability: 'active' });
    await untilRunning(svc, 2);
  });

  it('removes the service, after which its secret can go', async () => {
    expect((await t.client.delete(`/api/swarm/services/${svc}`)).status).toBe(200);
    expect((await t.client.get<ApiError>(`/api/swarm/services/${svc}`)).status).toBe(404);
    const gone = await t.client.delete<SwarmObject[]>(`/api/swarm/secrets/${secret}`);
    expect(gone.status, gone.text).toBe(200);
  });

  // Three deploys of a real swarm stack and their tasks: slow on a machine also running the other tests.
  it('deploys a two-service stack, redeploys an edit and removes it', async () => {
    const image = testEngine().image;
    const file = (replicas: number) =>
      `version: "3.8"\nservices:\n  web:\n    image: ${image}\n    command: ["sh", "-c", "trap 'exit 0' TERM; sleep 600 & wait"]\n    deploy:\n      replicas: ${replicas}\n  worker:\n    image: ${image}\n    command: ["sh", "-c", "trap 'exit 0' TERM; sleep 600 & wait"]\n`;
    const bad = await t.client.post<ApiError>('/api/swarm/stacks', { name: stack, content: 'services:\n  web: [\n' });
    expect(bad.status).toBe(400);
    expect(bad.body.detail).toMatch(/line \d+, column \d+/);
    // Checked against the Compose Specification like a project's file: a mapping where a list belongs.
    const wrong = await t.client.post<ApiError>('/api/swarm/stacks', {
      name: stack,
      content: `services:\n  web:\n    image: ${image}\n    ports: {a: 1}\n`,
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.detail).toMatch(/line 4, column \d+ \(services\.web\.ports\)/);
    expect((await t.client.get(`/api/swarm/stacks/${stack}`)).status).toBe(404);

    const deployed = await t.client.post<{ output: string }>('/api/swarm/stacks', { name: stack, content: file(1) });
    expect(deployed.status, deployed.text).toBe(200);
    await untilRunning(`${stack}_web`, 1);
    await untilRunning(`${stack}_worker`, 1);
    // The CLI's output stays for viewers of the stack's activity stream.
    const activity = await SseReader.open(base, `/api/swarm/stacks/${stack}/stream`, cookieHeader(t.client));
    readers.push(activity);
    await activity.waitFor(
      (r) =>
        r
          .of<{ output: string; ok?: boolean }>('state')
          .some((st) => st.ok === true && st.output.includes(`Creating service ${stack}_web`)),
      'the deploy output',
    );
    activity.close();
    const listed = (await t.client.get<SwarmStack[]>('/api/swarm/stacks')).body.find((s) => s.name === stack);
    expect(listed).toMatchObject({ services: 2, hasFile: true });

    const again = await t.client.post(`/api/swarm/stacks/${stack}`, { content: file(2) });
    expect(again.status, again.text).toBe(200);
    await untilRunning(`${stack}_web`, 2);
    const one = await t.client.get<StackDetail>(`/api/swarm/stacks/${stack}`);
    expect(one.body.content).toBe(file(2));
    expect(one.body.serviceList.map((s) => s.name)).toEqual([`${stack}_web`, `${stack}_worker`]);

    expect((await t.client.delete(`/api/swarm/stacks/${stack}`)).status).toBe(200);
    await until(
      async () => (await t.client.get(`/api/swarm/stacks/${stack}`)).status === 404,
      'the stack to go',
      WAIT_MS,
    );
  }, 180_000);

  it('makes a stack template into a stored stack (values filled in, not deployed) that then deploys', async () => {
    cat.routes.set(
      `/repo-${id}/stack.yml`,
      json(
        `services:\n  web:\n    image: \${IMAGE}\n    command: ["sh", "-c", "trap 'exit 0' TERM; echo \${GREETING}; sleep 600 & wait"]\n`,
        'text/plain',
      ),
    );
    const catalogue = {
      version: '3',
      templates: [
        {
          type: 2,
          title: `Swarm greeter ${id}`,
          repository: { url: `${cat.base}/repo-${id}`, stackfile: 'stack.yml' },
          env: [
            { name: 'GREETING', default: 'hi' },
            { name: 'IMAGE', default: testEngine().image },
          ],
        },
      ],
    };
    cat.routes.set(`/catalogue-${id}.json`, json(catalogue));
    const template = await t.client.post<{ id: number }>('/api/templates/', {
      title: `Swarm ${id}`,
      url: `${cat.base}/catalogue-${id}.json`,
    });
    expect(template.status, template.text).toBe(200);
    const [item] = (await t.client.get<TemplateDetail>(`/api/templates/${template.body.id}`)).body.items;
    expect(item?.stack?.kind).toBe('swarm');

    const made = await t.client.post<StackDetail>('/api/swarm/stacks/from-template', {
      item_id: item!.id,
      name: templated,
      env: { GREETING: `from-template-${id}` },
    });
    expect(made.status, made.text).toBe(200);
    expect(made.body).toMatchObject({ name: templated, services: 0, hasFile: true });
    expect(made.body.content).toContain(`echo from-template-${id}`);
    expect(made.body.content).toContain(`image: ${testEngine().image}`);
    const twice = await t.client.post<ApiError>('/api/swarm/stacks/from-template', {
      item_id: item!.id,
      name: templated,
    });
    expect(twice.status).toBe(409);

    const deployed = await t.client.post(`/api/swarm/stacks/${templated}`, { content: made.body.content });
    expect(deployed.status, deployed.text).toBe(200);
    await untilRunning(`${templated}_web`, 1);
    expect((await t.client.delete(`/api/swarm/stacks/${templated}`)).status).toBe(200);
    await t.client.delete(`/api/templates/${template.body.id}`);
  }, 120_000);
});
