import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Registry, ServiceDetail, SwarmTask } from '@berth/contract';
import { createTestApp, type TestApp } from './helpers/app';
import { privateRegistries } from './helpers/registries';
import { until } from './apps-fixtures';

/** Swarm services and stacks of a private image on the harness's single-node swarm engine. */
describe('private images in the swarm', () => {
  const r = privateRegistries();
  const host = process.env.BERTH_TEST_SWARM_HOST;
  if (!host) throw new Error('BERTH_TEST_SWARM_HOST is unset: source .test-env/env.sh');
  const swarm = (args: string[]) =>
    spawnSync(process.env.BERTH_TEST_DOCKER_CLI || 'docker', ['--host', host, ...args], {
      encoding: 'utf8',
      timeout: 60_000,
    });
  const id = randomBytes(3).toString('hex');
  const svc = `berth-t-regsvc-${id}`;
  const stack = `berth-t-regstack-${id}`;
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ DOCKER_HOST: host });
    const made = await t.client.post<Registry>('/api/registries', {
      name: 'private',
      server_address: r.basic,
      username: r.user,
      password: r.password,
    });
    expect(made.status).toBe(200);
    swarm(['rmi', '-f', r.image]);
  });
  afterAll(async () => {
    swarm(['service', 'rm', svc]);
    swarm(['stack', 'rm', stack]);
    await t?.close();
  });

  const running = async (ref: string) =>
    (await t.client.get<SwarmTask[]>(`/api/swarm/services/${ref}/tasks`)).body.filter((x) => x.state === 'running');

  it('creates a service of a private image (the credential goes with the call)', async () => {
    const created = await t.client.post<ServiceDetail>('/api/swarm/services', {
      name: svc,
      image: r.image,
      command: ['sleep', '600'],
    });
    expect(created.status, created.text).toBe(200);
    await until(async () => (await running(svc)).length === 1, `a running task of ${svc}`, 60_000);
  });

  it('deploys a stack of a private image with --with-registry-auth', async () => {
    swarm(['service', 'rm', svc]);
    // The node must pull again, so the stack's own credential is what lets it.
    await until(
      () => swarm(['rmi', '-f', r.image]).status === 0 && swarm(['image', 'inspect', r.image]).status !== 0,
      'the image gone',
      30_000,
    );
    const content = `services:\n  web:\n    image: ${r.image}\n    command: ["sleep", "600"]\n`;
    const res = await t.client.post<{ output: string }>('/api/swarm/stacks', { name: stack, content });
    expect(res.status, res.text).toBe(200);
    expect(res.text).not.toContain(r.password);
    await until(async () => (await running(`${stack}_web`)).length === 1, `a running task of ${stack}_web`, 60_000);
  });
});
