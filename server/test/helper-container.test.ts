import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HELPER_LABEL, HELPER_MOUNT } from '../src/services/volumes';
import { packOne, readArchive } from '../src/services/files/tar';
import { SYSTEM_ACTOR } from '../src/services/policy';
import type { ApiError, PolicyAnswer } from '@berth/contract';
import { createTestApp, signedInUser, type TestApp, type TestClient } from './helpers/app';
import { dockerCli, testEngine, tryDockerCli } from './helpers/engine';
import { uniqueName } from './images-fixtures';
import { cookieHeader, listen } from './apps-fixtures';
import { refusal, Term } from './terminal-fixtures';

let t: TestApp;
const volume = uniqueName('helper-vol');
// Stands for Berth's own container (BERTH_CONTAINER_NAME) and its data volume.
const self = uniqueName('helper-self');
const ownVolume = uniqueName('helper-own');
const operator = { role: 'operator' as const, username: 'op' };
let asOperator: TestClient;
const ownApp = uniqueName('helper-ownapp');

beforeAll(async () => {
  const { image } = testEngine();
  dockerCli([
    'run',
    '-d',
    '--name',
    self,
    '--label',
    'berth.test=1',
    '-v',
    `${ownVolume}:/data`,
    image,
    'sleep',
    '3600',
  ]);
  t = await createTestApp({ HELPER_IMAGE: image, BERTH_CONTAINER_NAME: self });
  asOperator = await signedInUser(t, 'helper-op@berth.test', 'operator');
  dockerCli(['volume', 'create', '--label', 'berth.test=1', volume]);
  dockerCli(['run', '--rm', '-v', `${volume}:/v`, testEngine().image, 'sh', '-c', 'echo hi > /v/a.txt']);
});

afterAll(async () => {
  tryDockerCli(['rm', '-f', self, ownApp]);
  tryDockerCli(['volume', 'rm', '-f', volume, ownVolume]);
  await t?.close();
});

const helpers = () => t.services.environments.get('local').helpers;
const helpersLeft = () =>
  dockerCli(['ps', '-aq', '--filter', `label=${HELPER_LABEL}`, '--filter', `volume=${volume}`]).trim();

describe('helper containers', () => {
  it('reads a volume through a created helper, refuses writes on a read-only one, and removes it', async () => {
    const names = await helpers().use(operator, { volume, readOnly: true, purpose: 'test' }, async (h) => {
      expect(helpersLeft()).toContain(h.id.slice(0, 12));
      const found: string[] = [];
      await readArchive(await t.ctx.docker.containers.getArchive(h.id, HELPER_MOUNT), (_h, rel) => {
        found.push(rel);
      });
      await expect(
        t.ctx.docker.containers.putArchive(
          h.id,
          HELPER_MOUNT,
          await packOne({ name: 'b.txt', type: 'file', size: 1 }, Buffer.from('x')),
        ),
      ).rejects.toThrow(/read-only/);
      return found;
    });
    expect(names).toContain('a.txt');
    expect(helpersLeft()).toBe('');
  });

  it('runs commands in a running helper', async () => {
    const out = await helpers().use(SYSTEM_ACTOR, { volume, readOnly: false, purpose: 'test', running: true }, (h) =>
      h.exec(['sh', '-c', `cat ${HELPER_MOUNT}/a.txt; exit 3`], 10_000),
    );
    expect(out).toEqual({ code: 3, output: 'hi\n' });
    expect(helpersLeft()).toBe('');
  });

  it('refuses an operator a volume bound to a host path the policy protects', async () => {
    const bound = uniqueName('helper-bound');
    dockerCli([
      'volume',
      'create',
      '--label',
      'berth.test=1',
      '-o',
      'type=none',
      '-o',
      'o=bind',
      '-o',
      'device=/etc',
      bound,
    ]);
    try {
      await expect(helpers().open(operator, { volume: bound, readOnly: true, purpose: 'test' })).rejects.toMatchObject({
        code: 'policy_denied',
      });
    } finally {
      tryDockerCli(['volume', 'rm', '-f', bound]);
    }
  });

  it("keeps Berth's own container and volumes from non-admins", async () => {
    const scope = t.services.environments.get('local');
    await expect(scope.appFiles.list(operator, self, '/')).rejects.toMatchObject({ code: 'policy_denied' });
    await expect(
      helpers().open(operator, { volume: ownVolume, readOnly: true, purpose: 'test' }),
    ).rejects.toMatchObject({
      code: 'policy_denied',
    });
    expect((await scope.appFiles.list(SYSTEM_ACTOR, self, '/data')).path).toBe('/data');
  });

  it("opens no terminal in Berth's own container for an operator, before any exec", async () => {
    const base = await listen(t.app);
    const csrf = asOperator.cookies.get('csrf_access_token')!;
    const open = Term.open(
      `${base.replace(/^http/, 'ws')}/api/apps/${self}/exec`,
      { cookie: cookieHeader(asOperator), origin: base },
      ['berth.terminal', `csrf.${csrf}`],
    );
    expect(await refusal(open)).toEqual({ status: 403, code: 'policy_denied' });
    expect(dockerCli(['inspect', '-f', '{{len .ExecIDs}}', self]).trim()).toBe('0');
  });
});

describe("Berth's own volume on every path that makes a container", () => {
  const denied = (res: { status: number; body: unknown; text: string }, field?: string) => {
    const body = res.body as ApiError;
    expect([res.status, body.code], res.text).toEqual([403, 'policy_denied']);
    expect(body.detail).toContain(`Volume ${ownVolume} holds Berth's own data`);
    expect(body.fields?.map((f) => f.rule)).toContain('volume');
    if (field) expect(body.fields?.map((f) => f.field)).toContain(field);
  };
  const form = (volumes: { bind: string; container: string }[], edit = false) => ({
    name: ownApp,
    image: testEngine().image,
    restart_policy: 'none',
    // Stops at once on the edit's replace (a bare sleep as PID 1 waits out the stop timeout).
    command: ['sh', '-c', 'trap "exit 0" TERM; sleep 600 & wait'],
    labels: [{ label: 'berth.test', value: '1' }],
    volumes,
    ...(edit ? { edit: true, id: ownApp } : {}),
  });

  it('tells operators its name, and refuses it to them (deploy, edit, rollback, compose, swarm, files); an admin may', async () => {
    const answer = await asOperator.get<PolicyAnswer>('/api/environments/local/policy');
    expect(answer.body.protected_volumes.map((v) => v.name)).toEqual([ownVolume]);
    expect(answer.body.protected_containers).toContain(self);

    const own = [{ bind: ownVolume, container: '/data' }];
    denied(await asOperator.post('/api/apps/deploy', form(own)), 'volumes.0.bind');
    // An admin may; once the app no longer mounts it, an operator may not bring it back by edit or rollback.
    expect((await t.client.post('/api/apps/deploy', form(own))).status).toBe(200);
    expect((await t.client.post('/api/apps/deploy', form([], true))).status).toBe(200);
    denied(await asOperator.post('/api/apps/deploy', form(own, true)));
    denied(await asOperator.post(`/api/apps/${ownApp}/revisions/1/rollback`), 'HostConfig.Binds.0');
    expect(dockerCli(['inspect', '-f', '{{len .Mounts}}', ownApp]).trim()).toBe('0');

    const project = uniqueName('ownvol').replace(/[^a-z0-9_-]/g, '');
    const content = `services:\n  a:\n    image: ${testEngine().image}\n    volumes: ["d:/d"]\nvolumes:\n  d: {external: true, name: ${ownVolume}}\n`;
    denied(await asOperator.post('/api/compose/', { name: project, content }), 'services.a.volumes.0');
    expect((await t.client.get(`/api/compose/${project}`)).status).toBe(404);
    // Nor join its namespaces (its processes' /proc/<pid>/root is its data folder).
    const joined = await asOperator.post<ApiError>('/api/compose/', {
      name: project,
      content: `services:\n  a:\n    image: ${testEngine().image}\n    pid: "container:${self}"\n`,
    });
    expect([joined.status, joined.body.code, joined.body.fields?.[0]?.rule], joined.text).toEqual([
      403,
      'policy_denied',
      'namespace',
    ]);
    denied(
      await asOperator.post('/api/swarm/services', {
        name: uniqueName('ownvol-svc'),
        image: testEngine().image,
        mounts: [{ type: 'volume', source: ownVolume, target: '/d', readOnly: true }],
      }),
    );
    denied(await asOperator.get(`/api/resources/volumes/${ownVolume}/files?path=/`));
  });
});
