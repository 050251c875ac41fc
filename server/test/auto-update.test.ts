import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiError, AppAutoUpdate, AuditEntry, AutoUpdateRun, AutoUpdateSettings } from '@berth/contract';
import { createTestApp, type TestApp } from './helpers/app';
import { autoUpdateHook, runAutoUpdate, testRepository } from './helpers/auto-update';
import { dockerCli } from './helpers/engine';
import { buildImage, cleanup, uniqueName } from './images-fixtures';
import { inspect, runTicker } from './apps-fixtures';

interface Inspected {
  Id: string;
  Image: string;
  State: { Running: boolean };
  Config: { Env: string[]; Labels: Record<string, string> };
}

let t: TestApp;
const image = testRepository('au');
const { ref, digests } = image;
const publish = image.publish;
const name = uniqueName('autoupd');

/** Starts a run now and waits until it has finished; returns this app's result. */
const runNow = async () => (await runAutoUpdate(t.client)).results.find((r) => r.name === name)!;

const setOverride = (body: Record<string, unknown>) =>
  t.client.request<AppAutoUpdate>('PUT', `/api/apps/${name}/auto-update`, {
    enabled: true,
    mode: 'update',
    schedule: null,
    settle_seconds: 1,
    ...body,
  });

let hook: Awaited<ReturnType<typeof autoUpdateHook>>;
const notification = (...words: string[]) => hook.notification(...words);

beforeAll(async () => {
  // The scheduler test below fires every 2 s: the minimum interval (5 min by default) is lowered for it.
  t = await createTestApp({ AUTO_UPDATE_MIN_INTERVAL_SECONDS: '1' });
  hook = await autoUpdateHook(t.client, { app: name });
});

afterAll(async () => {
  const leftovers = dockerCli(['ps', '-a', '--filter', `name=${name}`, '--format', '{{.Names}}'])
    .trim()
    .split('\n')
    .filter(Boolean);
  cleanup('container', name, ...leftovers);
  await image.remove();
  await t?.close();
  await hook?.close();
});

// The global policy stays disabled: only this test's app (enabled by its override) is ever touched on the shared engine.
describe('auto-update', () => {
  it("reads berth.* labels from the container's own configuration, never from its image (issue 38 #15)", async () => {
    const tag = `${uniqueName('au-labels')}:latest`;
    const [inherits, owns] = [uniqueName('au-inherit'), uniqueName('au-own')];
    buildImage(tag, { 'berth.auto-update': 'true', 'berth.auto-update.schedule': '* * * * * *' });
    try {
      dockerCli(['create', '--name', inherits, '--label', 'berth.test=1', tag, 'true']);
      dockerCli([
        'create',
        '--name',
        owns,
        '--label',
        'berth.test=1',
        '--label',
        'berth.auto-update.schedule=0 3 * * *',
        tag,
        'true',
      ]);
      const inherited = await t.client.get<AppAutoUpdate>(`/api/apps/${inherits}/auto-update`);
      expect(inherited.status, inherited.text).toBe(200);
      expect(inherited.body.labels).toEqual({});
      expect(inherited.body.effective).toMatchObject({ enabled: false, schedule: '0 4 * * *' });
      const own = await t.client.get<AppAutoUpdate>(`/api/apps/${owns}/auto-update`);
      expect(own.body.labels).toEqual({ 'berth.auto-update.schedule': '0 3 * * *' });
      expect(own.body.effective).toMatchObject({ enabled: false, schedule: '0 3 * * *' });
    } finally {
      cleanup('container', inherits, owns);
      cleanup('image', tag);
    }
  });

  it('shows the global policy with its next run, previews a schedule, and refuses one croner cannot read', async () => {
    const res = await t.client.get<AutoUpdateSettings>('/api/settings/auto-update');
    expect(res.body).toMatchObject({ enabled: false, mode: 'notify', schedule: '0 4 * * *', settle_seconds: 30 });
    expect(new Date(res.body.next_run_at!).getTime()).toBeGreaterThan(Date.now());
    // What the browser needs to check a schedule as it is typed, as this server does (1 s here).
    expect(res.body).toMatchObject({
      min_interval_seconds: 1,
      time_zone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    });
    const bad = await t.client.request<ApiError>('PUT', '/api/settings/auto-update', {
      enabled: false,
      mode: 'notify',
      schedule: 'every day',
      settle_seconds: 30,
    });
    expect(bad.status).toBe(400);
    expect(bad.body.detail).toMatch(/not a cron expression/);
    // The live preview of a schedule being typed asks the same croner, in the server's time zone.
    const preview = await t.client.get<{ next_run_at: string }>(
      '/api/settings/auto-update/next-run?schedule=0%204%20*%20*%20*',
    );
    expect(preview.body.next_run_at).toBe(res.body.next_run_at);
    const badPreview = await t.client.get<ApiError>('/api/settings/auto-update/next-run?schedule=every%20day');
    expect([badPreview.status, badPreview.body.detail]).toEqual([400, expect.stringMatching(/not a cron expression/)]);
  });

  it('records "update available" in notify mode and changes nothing, then updates the app keeping its configuration', async () => {
    publish();
    runTicker(name, ['-e', 'KEEP=me', '--label', 'custom=yes'], ref);
    const before = inspect<Inspected>(name);
    expect((await setOverride({ mode: 'notify' })).status).toBe(200);
    const second = publish();

    const notified = await runNow();
    expect(notified).toMatchObject({ result: 'update_available', from_digest: digests[0], to_digest: digests[1] });
    expect(inspect<Inspected>(name).Id).toBe(before.Id);

    await setOverride({ mode: 'update' });
    const updated = await runNow();
    expect(updated).toMatchObject({ result: 'updated', from_digest: digests[0], to_digest: digests[1] });
    const after = inspect<Inspected>(name);
    expect(after.Id).not.toBe(before.Id);
    expect(after.Image).toBe(second);
    expect(after.State.Running).toBe(true);
    expect(after.Config.Env).toContain('KEEP=me');
    expect(after.Config.Labels).toMatchObject({ custom: 'yes' });
    // The update is a revision of the app, on the new digest, to roll back to.
    const revs = await t.client.get<{ source: string; digest: string | null }[]>(`/api/apps/${name}/revisions`);
    expect(revs.body.map((r) => r.source)).toEqual(['auto-update']);
    expect(revs.body[0]!.digest).toContain(digests[1]!);

    // Each run is told through the notification rules and written to the audit log as the user auto-update.
    await notification('update_available', name);
    await notification('auto_update', name, 'was updated');
    const audit = await t.client.get<AuditEntry[]>('/api/audit?user=auto-update');
    expect(audit.body.filter((e) => e.target === name).map((e) => [e.user, e.status])).toEqual([['auto-update', 200]]);
  });

  it('rolls back an image whose container exits at once, then skips that digest on the next run', async () => {
    const before = inspect<Inspected>(name);
    publish('ENTRYPOINT ["false"]\n');

    const rolled = await runNow();
    expect(rolled).toMatchObject({ result: 'rolled_back', to_digest: digests[2] });
    expect(rolled.reason).toMatch(/stopped/);
    const after = inspect<Inspected>(name);
    expect(after.Id).toBe(before.Id);
    expect(after.Image).toBe(before.Image);
    expect(after.State.Running).toBe(true);
    // The tag names the image that runs again (a later recreate by tag must not bring the failing one back).
    expect(dockerCli(['image', 'inspect', '--format', '{{.Id}}', ref]).trim()).toBe(before.Image);
    expect(rolled.reason).toMatch(/names the previous image again/);
    expect(dockerCli(['ps', '-a', '--filter', `name=${name}-berth-`, '--format', '{{.Names}}']).trim()).toBe('');

    const skipped = await runNow();
    expect(skipped).toMatchObject({ result: 'up_to_date', to_digest: digests[2] });
    expect(skipped.reason).toMatch(/failed the health gate before/);
    expect(inspect<Inspected>(name).Id).toBe(before.Id);

    const panel = await t.client.get<AppAutoUpdate>(`/api/apps/${name}/auto-update`);
    expect(panel.body).toMatchObject({
      override: { enabled: true, mode: 'update' },
      effective: { enabled: true, settle_seconds: 1 },
      last: { result: 'up_to_date' },
    });
  });

  it('runs an app on its own schedule within the scheduled second', async () => {
    const every2s = '*/2 * * * * *';
    await setOverride({ mode: 'notify', schedule: every2s });
    const deadline = Date.now() + 20_000;
    let fired: AutoUpdateRun | undefined;
    while (!fired && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 500));
      fired = (await t.client.get<AutoUpdateRun[]>('/api/settings/auto-update/runs')).body.find(
        (r) => r.trigger === every2s && r.finished_at,
      );
    }
    await setOverride({ enabled: false, schedule: null });
    expect(fired?.results.map((r) => r.name)).toEqual([name]);
  });
});
