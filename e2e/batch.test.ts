import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dockerCli, testEngine, tryDockerCli } from '../server/test/helpers/engine';
import { expectRouteName, launchBrowser, newPage, signIn } from './helpers/browser';
import { startServer, type TestServer } from './helpers/server';

const EMAIL = 'admin@berth.local';
const PASSWORD = 'berth-e2e-batch-password';

describe('batch actions', () => {
  let server: TestServer;
  let browser: Browser;
  const prefix = `berth-t-e2eb-${Math.random().toString(36).slice(2, 8)}`;
  const names = [1, 2, 3].map((i) => `${prefix}-${i}`);

  beforeAll(async () => {
    // Stops at once on SIGTERM (a shell as PID 1 would ignore it for 10 s).
    for (const name of names)
      dockerCli([
        'run',
        '-d',
        '--name',
        name,
        '--label',
        'berth.test=1',
        testEngine().image,
        'sh',
        '-c',
        'trap "exit 0" TERM; while true; do sleep 0.2; done',
      ]);
    server = await startServer({ env: { ADMIN_PASSWORD: PASSWORD } });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    for (const name of names) tryDockerCli(['rm', '-f', name]);
    await browser?.close();
    await server?.stop();
  });

  it('selects three apps with shift-click, stops them in one go and shows the summary', async () => {
    const { context, page } = await newPage(browser, server.baseUrl);
    await signIn(page, EMAIL, PASSWORD, { path: '/#/apps' });
    await expectRouteName(page, 'View Applications');
    const table = page.getByRole('table', { name: 'Applications' });
    await page.getByLabel('Search').fill(prefix);
    for (const name of names)
      await table
        .getByRole('row')
        .filter({ hasText: name })
        .getByText('running', { exact: true })
        .waitFor({ timeout: 20_000 });

    await table.getByRole('checkbox', { name: `Select ${names[0]}` }).click();
    await table.getByRole('checkbox', { name: `Select ${names[2]}` }).click({ modifiers: ['Shift'] });
    for (const name of names)
      expect(await table.getByRole('checkbox', { name: `Select ${name}` }).isChecked()).toBe(true);

    const bar = page.getByRole('region', { name: 'Selection' });
    await bar.getByText('3 apps selected').waitFor();
    // Start does not apply to running apps, so the bar does not offer it.
    expect(await bar.getByRole('button', { name: 'Start', exact: true }).count()).toBe(0);
    await bar.getByRole('button', { name: 'Stop', exact: true }).click();

    const dialog = page.getByRole('dialog', { name: 'Stop 3 apps?' });
    for (const name of names) await dialog.getByText(name, { exact: true }).waitFor();
    await dialog.getByRole('button', { name: 'Stop' }).click();

    await page.getByTestId('batch-summary').filter({ hasText: '3 stopped.' }).waitFor({ timeout: 30_000 });
    await bar.waitFor({ state: 'detached' });
    for (const name of names)
      expect(dockerCli(['inspect', '--format', '{{.State.Status}}', name]).trim()).toBe('exited');
    for (const name of names)
      await table
        .getByRole('row')
        .filter({ hasText: name })
        .getByText(/^exited \(\d+\)$/)
        .waitFor();
    await context.close();
  });
});
