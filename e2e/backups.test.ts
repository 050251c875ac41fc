import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dockerCli, testEngine, tryDockerCli } from '../server/test/helpers/engine';
import { expectRouteName, launchBrowser, newPage, signIn } from './helpers/browser';
import { startServer, type TestServer } from './helpers/server';

const EMAIL = 'admin@berth.local';
const PASSWORD = 'berth-e2e-backups-password';
const suffix = Math.random().toString(36).slice(2, 8);
const volume = `berth-t-e2e-bk-${suffix}`;
const restored = `${volume}-restored`;
const JOB = `nightly-${suffix}`;

describe('backups in the browser', () => {
  let server: TestServer;
  let browser: Browser;
  let folder: string;

  beforeAll(async () => {
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'berth-e2e-bk-'));
    dockerCli(['volume', 'create', '--label', 'berth.test=1', volume]);
    dockerCli(['run', '--rm', '-v', `${volume}:/v`, testEngine().image, 'sh', '-c', 'echo kept > /v/data.txt']);
    server = await startServer({ env: { ADMIN_PASSWORD: PASSWORD, HELPER_IMAGE: testEngine().image } });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    tryDockerCli(['volume', 'rm', '-f', volume, restored]);
    fs.rmSync(folder, { recursive: true, force: true });
    await browser?.close();
    await server?.stop();
  });

  it('adds a folder destination and a job, runs it, restores the archive into a new volume and verifies it', async () => {
    const { context, page } = await newPage(browser, server.baseUrl);
    await signIn(page, EMAIL, PASSWORD);
    await page.getByRole('link', { name: 'Backups' }).click();
    await expectRouteName(page, 'Backups');

    // A folder destination: its form comes from the contract (the folder kind is the first).
    await page.getByRole('tab', { name: 'Destinations' }).click();
    await page.getByRole('button', { name: 'Add destination' }).click();
    const destForm = page.getByRole('form', { name: 'Add backup destination' });
    await destForm.getByLabel('Name').fill('host folder');
    await destForm.getByLabel('Folder').fill(folder);
    await destForm.getByRole('button', { name: 'Add' }).click();
    await page.getByRole('row').filter({ hasText: 'host folder' }).waitFor();

    // A job for the volume, then Run now.
    await page.getByRole('tab', { name: 'Jobs' }).click();
    await page.getByRole('button', { name: 'Add job' }).click();
    const jobForm = page.getByRole('form', { name: 'Add backup job' });
    await jobForm.getByLabel('Name').fill(JOB);
    await jobForm.getByRole('textbox', { name: 'Volumes' }).click();
    await page.getByRole('option', { name: volume, exact: true }).click();
    await jobForm.getByRole('textbox', { name: 'Destination' }).click();
    await page.getByRole('option', { name: 'host folder (folder)' }).click();
    await jobForm.getByRole('button', { name: 'Save' }).click();
    const jobRow = page.getByRole('row').filter({ hasText: JOB });
    await jobRow.getByText('never run').waitFor();
    await page.getByRole('button', { name: `Back up ${JOB} now` }).click();
    await jobRow.getByText('ok', { exact: true }).waitFor({ timeout: 60_000 });

    // The archive, restored into a new volume with its progress, then verified.
    await page.getByRole('tab', { name: 'Archives' }).click();
    const archiveRow = page.getByRole('row').filter({ hasText: volume });
    await archiveRow.getByText('not verified').waitFor();
    await archiveRow.getByRole('button', { name: /^Restore / }).click();
    const restoreForm = page.getByRole('form', { name: 'Restore' });
    await restoreForm.getByRole('textbox', { name: 'New volume' }).fill(restored);
    await restoreForm.getByRole('button', { name: 'Restore' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `Restored into ${restored}` })
      .waitFor({ timeout: 60_000 });
    await expect
      .poll(() => dockerCli(['run', '--rm', '-v', `${restored}:/v`, testEngine().image, 'cat', '/v/data.txt']).trim())
      .toBe('kept');
    await restoreForm.getByRole('button', { name: 'Close' }).click();

    await archiveRow.getByRole('button', { name: /^Verify .* now$/ }).click();
    await archiveRow.getByText('verified', { exact: true }).waitFor({ timeout: 60_000 });

    // The volume's page shows its last backup.
    await page.goto(`${server.baseUrl}/#/resources/volumes/${volume}/info`);
    await expectRouteName(page, 'Volume Details');
    await page.getByText('Last backup:').waitFor();
    await page.getByRole('button', { name: 'Back up now' }).waitFor();
    await context.close();
  });
});
