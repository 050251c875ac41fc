import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { expectRouteName, newPage, signIn } from './helpers/browser';
import type { TestServer } from './helpers/server';
import { withConsole } from './helpers/console';

const EMAIL = 'admin@berth.local';

/** The page's body background as the browser computed it. */
const bodyBackground = (page: Page) => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
/** Picks a file through the Settings file field's file chooser, as a person would. */
async function chooseFile(page: Page, file: string): Promise<void> {
  const chooser = page.waitForEvent('filechooser');
  await page.getByLabel('Settings file').click();
  await (await chooser).setFiles(file);
}
const stored = (page: Page) =>
  page.evaluate(() => ({ dark: localStorage.getItem('dark_theme'), theme: localStorage.getItem('theme') }));

describe('settings', () => {
  let server: TestServer;
  let browser: Browser;
  let password: string;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'berth-t-settings-e2e-'));
  withConsole((run) => ({ server, browser, password } = run));
  afterAll(() => {
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it("keeps the theme editor's colours and dark switch across a reload, and Reset forgets them", async () => {
    const { context, page } = await newPage(browser, server.baseUrl);
    await signIn(page, EMAIL, password);
    await page.goto('/#/settings/theme');
    await expectRouteName(page, 'Theme');

    await page.locator('label', { hasText: /^Background$/ }).click();
    await page.getByRole('textbox', { name: 'Background colour' }).fill('#123456');
    await page.getByText('Dark theme', { exact: true }).click();
    expect(await page.getByRole('switch', { name: 'Dark theme' }).isChecked()).toBe(false);
    // The light palette is edited now; give it its own background too.
    await page.getByRole('textbox', { name: 'Background colour' }).fill('#fedcba');
    await page.getByRole('button', { name: 'Set', exact: true }).click();
    await page.getByText('Theme saved').waitFor();

    await page.reload();
    await expectRouteName(page, 'Theme');
    expect(await bodyBackground(page)).toBe('rgb(254, 220, 186)');
    const s = await stored(page);
    expect(s.dark).toBe('false');
    const theme = JSON.parse(s.theme!) as { light: { background: string }; dark: { background: string } };
    expect(theme.light.background).toBe('#fedcba');
    expect(theme.dark.background).toBe('#123456');
    expect(await page.getByRole('switch', { name: 'Dark theme' }).isChecked()).toBe(false);

    // Back to dark: its saved background applies.
    await page.getByText('Dark theme', { exact: true }).click();
    expect(await page.getByRole('switch', { name: 'Dark theme' }).isChecked()).toBe(true);
    await page.getByRole('button', { name: 'Set', exact: true }).click();
    await page.reload();
    await expectRouteName(page, 'Theme');
    expect(await bodyBackground(page)).toBe('rgb(18, 52, 86)');

    await page.getByRole('button', { name: 'Reset' }).click();
    await page.waitForLoadState('load');
    await expectRouteName(page, 'Theme');
    expect(await stored(page)).toEqual({ dark: null, theme: null });
    expect(await bodyBackground(page)).not.toBe('rgb(18, 52, 86)');
    await context.close();
  });

  it('shows the real version and server info, exports, and imports only a .json file', async () => {
    const { context, page } = await newPage(browser, server.baseUrl);
    await signIn(page, EMAIL, password);
    await page.goto('/#/settings/info');
    await expectRouteName(page, 'Server Info');
    const health = (await (await fetch(`${server.baseUrl}/api/health`)).json()) as { version: string };
    await page
      .getByLabel('Berth version')
      .filter({ hasText: `v${health.version}` })
      .waitFor();
    const info = page.getByRole('table', { name: 'Server info' });
    await info.getByRole('cell', { name: server.dataDir, exact: true }).waitFor();
    await info.getByText(/API \d+\.\d+/).waitFor();

    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe('berth-settings.json');
    const exported = path.join(tmp, 'berth-settings.json');
    await file.saveAs(exported);
    expect(JSON.parse(fs.readFileSync(exported, 'utf8'))).toMatchObject({ format: 'berth-settings', version: 1 });

    const importButton = page.getByRole('button', { name: 'Import' });
    expect(await importButton.isDisabled()).toBe(true);
    const wrong = path.join(tmp, 'settings.txt');
    fs.writeFileSync(wrong, '{}');
    await chooseFile(page, wrong);
    await page.getByText('Must be a .json file.').waitFor();
    expect(await importButton.isDisabled()).toBe(true);

    await chooseFile(page, exported);
    // Changed on purpose (issue 22.5): an import asks for the current password first.
    expect(await importButton.isDisabled()).toBe(true);
    await page.getByLabel('Current Password').fill(password);
    expect(await importButton.isDisabled()).toBe(false);
    await importButton.click();
    // It asks first, naming what it replaces.
    const ask = page.getByRole('dialog', { name: 'Replace templates and variables?' });
    await ask
      .getByText(
        /^The import replaces the \d+ template sources? \(with their items\) and the \d+ template variables? on this server with the ones in berth-settings\.json\./,
      )
      .waitFor();
    await ask.getByRole('button', { name: 'Replace' }).click();
    await page.getByText(/Import Successful/).waitFor();
    await context.close();
  });

  it('keeps Update disabled and says why when Berth is not in a container', async () => {
    const { context, page } = await newPage(browser, server.baseUrl);
    await signIn(page, EMAIL, password);
    await page.goto('/#/settings/update');
    await expectRouteName(page, 'Update');
    await page.getByTestId('update-status').filter({ hasText: 'Berth is not running in a container' }).waitFor();
    expect(await page.getByRole('button', { name: 'Update Berth' }).isDisabled()).toBe(true);
    await page.getByText('you will be logged out').waitFor();
    await context.close();
  });
});
