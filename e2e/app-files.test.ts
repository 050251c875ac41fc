import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dockerCli, testEngine, tryDockerCli } from '../server/test/helpers/engine';
import { expectRouteName, launchBrowser, newPage, signIn } from './helpers/browser';
import { startServer, type TestServer } from './helpers/server';

const EMAIL = 'admin@berth.local';
const PASSWORD = 'berth-e2e-files-password';
const name = `berth-t-e2e-files-${Math.random().toString(36).slice(2, 8)}`;
const exec = (...cmd: string[]) => dockerCli(['exec', name, ...cmd]);

describe('files of an app', () => {
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    dockerCli(['run', '-d', '--name', name, '--label', 'berth.test=1', testEngine().image, 'sleep', '3600']);
    exec('sh', '-c', 'echo "old greeting" > /etc/motd && ln -s motd /etc/greeting');
    server = await startServer({ env: { ADMIN_PASSWORD: PASSWORD } });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    tryDockerCli(['rm', '-f', name]);
    await browser?.close();
    await server?.stop();
  });

  it('opens Files, edits and saves a file, uploads one, and opens a file through its symlink', async () => {
    const { context, page } = await newPage(browser, server.baseUrl);
    await signIn(page, EMAIL, PASSWORD);
    await page.goto(`/#/apps/${name}/info`);
    // The app's page first shows its Info route; a click on the tab before that settled was lost once
    // (the clean-clone run of f49fb23), so the click follows the Info route's name.
    await expectRouteName(page, 'Info');
    await page
      .getByRole('tab', { name: 'Files' })
      .or(page.getByRole('link', { name: 'Files' }))
      .first()
      .click();
    await expectRouteName(page, 'Files');
    await page.getByRole('button', { name: 'etc', exact: true }).click();
    await page.getByRole('button', { name: 'motd', exact: true }).click();

    const editor = page.getByRole('textbox', { name: 'File content' });
    await editor.waitFor();
    await expect.poll(() => editor.textContent()).toContain('old greeting');
    await editor.click();
    await page.keyboard.press('Control+A');
    await page.keyboard.type('Hello from Berth');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => exec('cat', '/etc/motd')).toBe('Hello from Berth');

    await page.locator('input[type="file"]').setInputFiles({
      name: 'notes.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('uploaded through the browser\n'),
    });
    await page.getByRole('button', { name: 'notes.txt', exact: true }).waitFor();
    expect(exec('cat', '/etc/notes.txt')).toBe('uploaded through the browser\n');

    // A symlink to a file opens that file (followed by the server, inside the container).
    await page.getByRole('button', { name: 'greeting', exact: true }).click();
    await expect.poll(() => editor.textContent()).toContain('Hello from Berth');
    await page.getByRole('button', { name: 'Close' }).click();
    await context.close();
  });
});
