import fs from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dockerCli, testEngine, tryDockerCli } from '../server/test/helpers/engine';
import { expectRouteName, launchBrowser, newPage, signIn } from './helpers/browser';
import { startServer, type TestServer } from './helpers/server';

const EMAIL = 'admin@berth.local';
const PASSWORD = 'berth-e2e-autoupdate-password';

describe('auto-update', () => {
  let server: TestServer;
  let browser: Browser;
  const name = `berth-t-e2eau-${Math.random().toString(36).slice(2, 8)}`;
  // The app runs version 1.0.0 of a repository of its own whose registry also has 1.1.0 (the test image under both tags).
  const repo = `${testEngine().registry}/${name}/app`;

  beforeAll(async () => {
    for (const tag of ['1.0.0', '1.1.0']) {
      dockerCli(['tag', testEngine().image, `${repo}:${tag}`]);
      dockerCli(['push', '-q', `${repo}:${tag}`], { timeoutMs: 120_000 });
    }
    dockerCli(['create', '--name', name, '--label', 'berth.test=1', `${repo}:1.0.0`, 'true']);
    server = await startServer({ env: { ADMIN_PASSWORD: PASSWORD } });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    tryDockerCli(['rm', '-f', name]);
    tryDockerCli(['rmi', `${repo}:1.0.0`, `${repo}:1.1.0`]);
    await browser?.close();
    await server?.stop();
  });

  it('shows the policy with its next run, runs now into the history, and sets an app override on its page', async () => {
    const { context, page } = await newPage(browser, server.baseUrl);
    await signIn(page, EMAIL, PASSWORD, { path: '/#/settings/auto-update' });
    await expectRouteName(page, 'Auto-update');
    await page
      .getByTestId('auto-update-next-run')
      .filter({ hasText: /^Next run at / })
      .waitFor();

    // Nothing is enabled in this fresh server, so the run touches nothing and says so.
    await page.getByRole('button', { name: 'Run now' }).click();
    const runs = page.getByRole('table', { name: 'Auto-update runs' });
    await runs.getByText('No app or compose service has auto-update enabled.').waitFor({ timeout: 30_000 });
    expect(await runs.getByText('Run now', { exact: true }).count()).toBe(1);

    await page.goto(`/#/apps/${name}/info`);
    await expectRouteName(page, 'Info');
    const effective = page.getByTestId('auto-update-effective');
    await effective.filter({ hasText: 'In effect: off' }).waitFor();
    await page.getByRole('textbox', { name: 'Auto-update' }).click();
    await page.getByRole('option', { name: 'On', exact: true }).click();
    await page.getByRole('button', { name: 'Save auto-update' }).click();
    await effective.filter({ hasText: 'In effect: on, notify only' }).waitFor();
    await context.close();
  });

  it('previews a schedule while it is typed, and sets a compose project override on the project page', async () => {
    // A project on disk is enough: the panel lists services once they have containers.
    const project = `${name}-p`;
    fs.mkdirSync(path.join(server.dataDir, 'compose', project), { recursive: true });
    fs.writeFileSync(
      path.join(server.dataDir, 'compose', project, 'docker-compose.yml'),
      `services:\n  web:\n    image: ${testEngine().image}\n`,
    );
    const { context, page } = await newPage(browser, server.baseUrl);
    await signIn(page, EMAIL, PASSWORD, { path: '/#/settings/auto-update' });
    const schedule = page.getByRole('textbox', { name: 'Schedule' });
    const preview = page.getByTestId('auto-update-next-run');
    await preview.filter({ hasText: /^Next run at / }).waitFor();
    // Marked on the field as it is typed (croner in the browser), no preview while it is invalid.
    await schedule.fill('every day');
    await page.getByText('Not a cron expression (5 fields').waitFor();
    expect(await schedule.getAttribute('aria-invalid')).toBe('true');
    expect(await preview.count()).toBe(0);
    await schedule.fill('*/1 * * * *');
    await page.getByText('Runs more often than every 300 seconds').waitFor();
    await schedule.fill('30 2 * * *');
    await preview.filter({ hasText: /^Next run at .*02:30:00, then .*02:30:00, .*02:30:00$/ }).waitFor();
    expect(await schedule.getAttribute('aria-invalid')).toBe('false');
    // The switch is off in this fresh server: saving says nothing will run, beside the button and in the toast.
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Auto-update policy saved: The switch is off: nothing will run').waitFor();

    await page.goto(`/#/projects/${project}`);
    await expectRouteName(page, 'Project Details');
    const effective = page.getByTestId('auto-update-effective');
    await effective.filter({ hasText: 'In effect: off' }).waitFor();
    await page.getByTestId('auto-update-services').or(page.getByText('No service has a container yet')).waitFor();
    await page.getByRole('textbox', { name: 'Auto-update' }).click();
    await page.getByRole('option', { name: 'On', exact: true }).click();
    await page.getByRole('button', { name: 'Save auto-update' }).click();
    await effective.filter({ hasText: 'In effect: on, notify only' }).waitFor();
    await context.close();
  });

  it('shows "1.1.0 available" in the list and on the app page after a check, and sets the app to move by minor versions', async () => {
    const { context, page } = await newPage(browser, server.baseUrl);
    await signIn(page, EMAIL, PASSWORD, { path: '/#/apps' });
    await page.getByRole('button', { name: 'Updates' }).click();
    const row = page.getByRole('row').filter({ hasText: name });
    await row.getByTestId('newer-version').filter({ hasText: '1.1.0 available' }).waitFor({ timeout: 60_000 });

    await page.goto(`/#/apps/${name}/info`);
    await expectRouteName(page, 'Info');
    await page.getByTestId('newer-version').filter({ hasText: '1.1.0 available' }).waitFor();
    await page.getByRole('textbox', { name: 'Versions' }).click();
    await page.getByRole('option', { name: /Newer minor version/ }).click();
    await page.getByRole('button', { name: 'Save auto-update' }).click();
    await page.getByTestId('auto-update-effective').filter({ hasText: 'newer minor versions' }).waitFor();
    await context.close();
  });
});
