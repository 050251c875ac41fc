import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dockerCli, testEngine, tryDockerCli } from '../server/test/helpers/engine';
import { expectRouteName, launchBrowser, newPage, signIn } from './helpers/browser';
import { startServer, type TestServer } from './helpers/server';

const EMAIL = 'admin@berth.local';
const PASSWORD = 'berth-e2e-logs-password';
const name = `berth-t-e2e-logs-${Math.random().toString(36).slice(2, 8)}`;

describe('log view', () => {
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    // A red line whose text is markup, a JSON line at error level and a long line; then quiet.
    const script = `printf '\\033[31m<img src=x onerror=alert(1)>\\033[0m\\n'; echo '{"level":"error","msg":"boom"}'; echo long-${'word '.repeat(120)}; sleep 3600`;
    dockerCli(['run', '-d', '--name', name, '--label', 'berth.test=1', testEngine().image, 'sh', '-c', script]);
    server = await startServer({ env: { ADMIN_PASSWORD: PASSWORD } });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    tryDockerCli(['rm', '-f', name]);
    await browser?.close();
    await server?.stop();
  });

  it('shows ANSI colours as styled text, never as HTML, highlights a search and wraps long lines', async () => {
    const { context, page } = await newPage(browser, server.baseUrl);
    let dialogs = 0;
    page.on('dialog', (d) => {
      dialogs++;
      void d.dismiss();
    });
    await signIn(page, EMAIL, PASSWORD);
    await page.goto(`/#/apps/${name}/logs`);
    await expectRouteName(page, 'Logs');
    const row = page.locator('[data-log-line]').filter({ hasText: '<img src=x onerror=alert(1)>' });
    await row.waitFor({ timeout: 15_000 });
    const colour = await row.getByText('<img src=x onerror=alert(1)>', { exact: true }).evaluate((el) => getComputedStyle(el).color);
    expect(colour).toBe('rgb(187, 0, 0)');
    expect(await page.getByTestId('log-view').locator('img').count()).toBe(0);
    // The JSON line is coloured by its level.
    expect(await page.locator('[data-log-line] [data-level="error"]').count()).toBe(1);

    await page.getByRole('textbox', { name: 'Search the log' }).fill('onerror');
    await page.locator('[data-log-line] mark', { hasText: 'onerror' }).waitFor();
    await page.getByText('1 matches').waitFor();
    expect(dialogs).toBe(0);

    // Wrap: the long line grows to several 20 px rows instead of scrolling sideways.
    const long = page.locator('[data-log-line]').filter({ hasText: /^long-/ });
    expect((await long.boundingBox())!.height).toBe(20);
    await page.getByRole('checkbox', { name: 'Wrap' }).check();
    await expect.poll(async () => (await long.boundingBox())!.height).toBeGreaterThan(40);
    await context.close();
  });
});
