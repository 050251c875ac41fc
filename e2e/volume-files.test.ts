import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dockerCli, testEngine, tryDockerCli } from '../server/test/helpers/engine';
import { expectRouteName, launchBrowser, newPage, signIn } from './helpers/browser';
import { startServer, type TestServer } from './helpers/server';

const EMAIL = 'admin@berth.local';
const PASSWORD = 'berth-e2e-vfiles-password';
const volume = `berth-t-e2e-vfiles-${Math.random().toString(36).slice(2, 8)}`;
/** The volume as a fresh container sees it. */
const inVolume = (script: string) =>
  dockerCli(['run', '--rm', '-v', `${volume}:/v`, testEngine().image, 'sh', '-c', script]);

describe('files of a volume', () => {
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    dockerCli(['volume', 'create', '--label', 'berth.test=1', volume]);
    inVolume('mkdir /v/conf && echo "level=info" > /v/conf/app.ini');
    server = await startServer({ env: { ADMIN_PASSWORD: PASSWORD, HELPER_IMAGE: testEngine().image } });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    tryDockerCli(['volume', 'rm', '-f', volume]);
    await browser?.close();
    await server?.stop();
  });

  it("opens a volume's Files, edits and saves a file", async () => {
    const { context, page } = await newPage(browser, server.baseUrl);
    await signIn(page, EMAIL, PASSWORD);
    await page.goto(`/#/resources/volumes/${volume}`);
    await expectRouteName(page, 'Volume Details');
    await page.getByRole('tab', { name: 'Files' }).click();
    await expectRouteName(page, 'Files');
    await page.getByRole('button', { name: 'conf', exact: true }).click();
    await page.getByRole('button', { name: 'app.ini', exact: true }).click();

    const editor = page.getByRole('textbox', { name: 'File content' });
    await editor.waitFor();
    await expect.poll(() => editor.textContent()).toContain('level=info');
    await editor.click();
    await page.keyboard.press('Control+A');
    await page.keyboard.type('level=debug');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => inVolume('cat /v/conf/app.ini')).toBe('level=debug');
    await context.close();
  });
});
