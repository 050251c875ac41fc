import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiError } from '@berth/contract';
import { createTestApp, type TestApp } from './helpers/app';
import { dockerCli, testEngine, tryDockerCli } from './helpers/engine';

const name = `berth-t-self-${crypto.randomBytes(4).toString('hex')}`;
let t: TestApp;
let id: string;

beforeAll(async () => {
  id = dockerCli(['create', '--name', name, '--label', 'berth.test=1', testEngine().image, 'sleep', '3600']).trim();
  t = await createTestApp({ BERTH_CONTAINER_NAME: name });
});
afterAll(async () => {
  await t?.close();
  tryDockerCli(['rm', '-f', name]);
});

describe('updating Berth’s own container as an app', () => {
  it('is refused with 409 pointing to Settings → Update, and the container is untouched', async () => {
    const res = await t.client.post<ApiError>(`/api/apps/${name}/update`);
    expect(res.status).toBe(409);
    expect(res.body.detail).toMatch(/Settings → Update/);
    expect(dockerCli(['inspect', '--format', '{{.Id}}', name]).trim()).toBe(id);
  });
});
