import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HELPER_LABEL, HELPER_MOUNT } from '../src/services/volumes';
import { packOne, readArchive } from '../src/services/files/tar';
import { SYSTEM_ACTOR } from '../src/services/policy';
import { createTestApp, type TestApp } from './helpers/app';
import { dockerCli, testEngine, tryDockerCli } from './helpers/engine';
import { uniqueName } from './images-fixtures';

let t: TestApp;
const volume = uniqueName('helper-vol');
// Stands for Berth's own container (BERTH_CONTAINER_NAME) and its data volume.
const self = uniqueName('helper-self');
const ownVolume = uniqueName('helper-own');
const operator = { role: 'operator' as const, username: 'op' };

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
  dockerCli(['volume', 'create', '--label', 'berth.test=1', volume]);
  dockerCli(['run', '--rm', '-v', `${volume}:/v`, testEngine().image, 'sh', '-c', 'echo hi > /v/a.txt']);
});

afterAll(async () => {
  tryDockerCli(['rm', '-f', self]);
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
          packOne({ name: 'b.txt', type: 'file', size: 1 }, Buffer.from('x')),
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
});
