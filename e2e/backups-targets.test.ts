import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEngine } from '../server/test/helpers/engine';
import { expectRouteName, launchBrowser, newPage, signIn } from './helpers/browser';
import { button, choose, field } from './helpers/form';
import { startServer, type TestServer } from './helpers/server';

const EMAIL = 'admin@berth.local';
const PASSWORD = 'berth-e2e-backup-targets-password';
/** The harness's S3-compatible server (scripts/test-env-s3.sh). */
const S3 = process.env;

describe('backups to S3, of Berth itself', () => {
  let server: TestServer;
  let browser: Browser;
  let into: string;

  beforeAll(async () => {
    expect(S3.BERTH_TEST_S3_ENDPOINT, 'scripts/test-env-s3.sh exported no BERTH_TEST_S3_*').toBeTruthy();
    into = fs.mkdtempSync(path.join(os.tmpdir(), 'berth-e2e-restored-'));
    server = await startServer({ env: { ADMIN_PASSWORD: PASSWORD, HELPER_IMAGE: testEngine().image } });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    fs.rmSync(into, { recursive: true, force: true });
  });

  it('adds an S3 bucket from the generated form, backs Berth up to it and restores it into a new data folder', async () => {
    const { context, page } = await newPage(browser, server.baseUrl);
    await signIn(page, EMAIL, PASSWORD);
    await page.goto('/#/backups');
    await expectRouteName(page, 'Backups');

    await page.getByRole('tab', { name: 'Destinations' }).click();
    await button(page, 'Add destination').click();
    await choose(page, 'Kind', 'S3-compatible bucket');
    await field(page, 'Name').fill('bucket-e2e');
    await field(page, 'Endpoint').fill(S3.BERTH_TEST_S3_ENDPOINT!);
    await field(page, 'Bucket').fill(S3.BERTH_TEST_S3_BUCKET!);
    await field(page, 'Prefix').fill(`e2e-${Date.now()}`);
    await field(page, 'Access key ID').fill(S3.BERTH_TEST_S3_ACCESS_KEY!);
    await page.getByLabel('Secret access key').fill(S3.BERTH_TEST_S3_SECRET_KEY!);
    await button(page, 'Add').click();
    await page.getByRole('button', { name: 'Test bucket-e2e' }).waitFor();

    await page.getByRole('tab', { name: 'Jobs' }).click();
    await button(page, 'Add job').click();
    await field(page, 'Name').fill('berth-self');
    await page.getByText('Berth itself', { exact: true }).click();
    await page.getByText('This archive holds secrets').waitFor();
    await choose(page, 'Destination', 'bucket-e2e (s3)');
    await button(page, 'Save').click();
    await page.getByRole('button', { name: 'Back up berth-self now' }).click();
    await page.getByRole('tab', { name: 'Archives' }).click();
    const row = page.getByRole('row').filter({ hasText: 'Berth itself' }).filter({ hasText: '.tar.zst' });
    await row.waitFor({ timeout: 60_000 });

    await row.getByRole('button', { name: /^Restore / }).click();
    await field(page, 'Into a new data folder').fill(into);
    await page.getByRole('dialog').getByRole('button', { name: 'Restore', exact: true }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `Restored into ${into}` })
      .waitFor({ timeout: 60_000 });
    expect(fs.readdirSync(into).sort()).toEqual(['berth.db', 'keys']);
    await context.close();
  }, 180_000);
});
