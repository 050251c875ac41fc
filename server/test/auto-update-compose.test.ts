import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiError, AuditEntry, AutoUpdateItem, ProjectAutoUpdate } from '@berth/contract';
import { inspect } from './apps-fixtures';
import { createTestApp, type TestApp } from './helpers/app';
import { autoUpdateHook, runAutoUpdate, testRepository } from './helpers/auto-update';
import { cleanupProject, projectName } from './helpers/compose-projects';
import { dockerCli } from './helpers/engine';

interface Inspected {
  Id: string;
  Name: string;
  Image: string;
  State: { Running: boolean };
}

let t: TestApp;
let hook: Awaited<ReturnType<typeof autoUpdateHook>>;
const web = testRepository('auc', 'web');
const worker = testRepository('auc', 'worker');
const name = projectName('auc');

// No berth.auto-update label: tests of other features share the engine, and a label would enable the project in their runs too.
const yaml = () => `services:
  web:
    image: ${web.ref}
    command: ["sleep", "3600"]
    stop_signal: SIGKILL
  worker:
    image: ${worker.ref}
    command: ["sleep", "3600"]
    stop_signal: SIGKILL
    labels:
      berth.auto-update.schedule: "0 5 * * *"
`;

/** The one container of a service, inspected. */
const container = (service: string) =>
  inspect<Inspected>(
    dockerCli([
      'ps',
      '-aq',
      '--filter',
      `label=com.docker.compose.project=${name}`,
      '--filter',
      `label=com.docker.compose.service=${service}`,
    ]).trim(),
  );

/** Runs now; this project's results by service. */
async function runNow(): Promise<Record<string, AutoUpdateItem>> {
  const run = await runAutoUpdate(t.client);
  return Object.fromEntries(
    run.results.filter((r) => r.name.startsWith(`${name}/`)).map((r) => [r.name.slice(name.length + 1), r]),
  );
}

const setOverride = (mode: 'notify' | 'update') =>
  t.client.request<ProjectAutoUpdate>('PUT', `/api/compose/${name}/auto-update`, {
    enabled: true,
    mode,
    schedule: null,
    settle_seconds: 1,
  });

beforeAll(async () => {
  t = await createTestApp();
  hook = await autoUpdateHook(t.client, { project: name });
  web.publish();
  worker.publish();
  expect((await t.client.post('/api/compose/', { name, content: yaml() })).status).toBe(200);
  const up = await t.client.post(`/api/compose/${name}/actions/up`);
  expect(up.status, up.text).toBe(200);
});

afterAll(async () => {
  cleanupProject(name);
  await Promise.all([web.remove(), worker.remove()]);
  await t?.close();
  await hook?.close();
});

// The global policy stays disabled: only this project (enabled by its override) is touched on the shared engine.
describe('auto-update of compose projects', () => {
  it('records "update available" in notify mode and changes nothing, then updates only the changed service', async () => {
    const [webBefore, workerBefore] = [container('web'), container('worker')];
    const set = await setOverride('notify');
    expect(set.status, set.text).toBe(200);
    const second = web.publish();

    const notified = await runNow();
    expect(notified).toMatchObject({
      web: { result: 'update_available', from_digest: web.digests[0], to_digest: web.digests[1] },
      worker: { result: 'up_to_date' },
    });
    expect(container('web').Id).toBe(webBefore.Id);

    await setOverride('update');
    const updated = await runNow();
    expect(updated).toMatchObject({
      web: { result: 'updated', from_digest: web.digests[0], to_digest: web.digests[1] },
      worker: { result: 'up_to_date' },
    });
    const webAfter = container('web');
    expect(webAfter.Id).not.toBe(webBefore.Id);
    expect(webAfter.Image).toBe(second);
    expect(webAfter.State.Running).toBe(true);
    expect(container('worker').Id).toBe(workerBefore.Id);

    // Told through the rules scoped to the project, and written to the audit log per service, as the user auto-update.
    await hook.notification('update_available', `${name}/web`);
    await hook.notification('auto_update', `${name}/web was updated`);
    const audit = await t.client.get<AuditEntry[]>('/api/audit?user=auto-update');
    expect(audit.body.filter((e) => e.target?.startsWith(`${name}/`)).map((e) => [e.target, e.status])).toEqual([
      [`${name}/web`, 200],
    ]);
  });

  it('rolls a service whose new container exits at once back to its previous digest and tag, then skips that digest', async () => {
    const [webBefore, workerBefore] = [container('web'), container('worker')];
    web.publish('ENTRYPOINT ["false"]\n');

    const rolled = await runNow();
    expect(rolled.web).toMatchObject({ result: 'rolled_back', from_digest: web.digests[1], to_digest: web.digests[2] });
    expect(rolled.web!.reason).toMatch(/stopped.*names the previous image again/);
    expect(container('web').Image).toBe(webBefore.Image);
    expect(container('worker').Id).toBe(workerBefore.Id);
    // The host's tag names the previous image again, so a plain Up (no pin) keeps it rather than bringing the failing one back.
    expect(dockerCli(['image', 'inspect', '--format', '{{.Id}}', web.ref]).trim()).toBe(webBefore.Image);
    const up = await t.client.post(`/api/compose/${name}/actions/up`);
    expect(up.status, up.text).toBe(200);
    const webAfter = container('web');
    expect(webAfter.Image).toBe(webBefore.Image);
    expect(webAfter.State.Running).toBe(true);

    const skipped = await runNow();
    expect(skipped.web).toMatchObject({ result: 'up_to_date', to_digest: web.digests[2] });
    expect(skipped.web!.reason).toMatch(/failed the health gate before/);
    expect(container('web').Id).toBe(webAfter.Id);

    // A compose container is never updated as an app (behind compose's back): its project is the place.
    const asApp = await t.client.request<ApiError>('PUT', `/api/apps/${webAfter.Name.slice(1)}/auto-update`, {
      enabled: true,
      mode: null,
      schedule: null,
      settle_seconds: null,
    });
    expect([asApp.status, asApp.body.detail]).toEqual([
      400,
      expect.stringContaining(`belongs to compose project ${name}`),
    ]);

    const panel = await t.client.get<ProjectAutoUpdate>(`/api/compose/${name}/auto-update`);
    expect(panel.body).toMatchObject({
      override: { enabled: true, mode: 'update' },
      last: { result: 'up_to_date', name: `${name}/web` },
    });
    expect(panel.body.services.map((s) => [s.name, s.effective.schedule, s.last?.result])).toEqual([
      ['web', '0 4 * * *', 'up_to_date'],
      ['worker', '0 5 * * *', 'up_to_date'],
    ]);
  });
});
