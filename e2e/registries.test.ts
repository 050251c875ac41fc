import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import type { Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectRouteName, newPage, signIn } from './helpers/browser';
import { withConsole } from './helpers/console';
import type { TestServer } from './helpers/server';

const env = process.env;
const EMAIL = 'admin@berth.local';
const docker = (args: string[]) =>
  spawnSync(env.BERTH_TEST_DOCKER_CLI || 'docker', args, { encoding: 'utf8', timeout: 60_000 });

describe('registries', () => {
  let server: TestServer;
  let browser: Browser;
  let password: string;
  withConsole((run) => ({ server, browser, password } = run));

  it('adds the TLS registry after a Test, browses its repositories and pulls a tag with the credential', async () => {
    const [tls, user, secret, caFile] = [
      env.BERTH_TEST_PRIVATE_TLS_REGISTRY,
      env.BERTH_TEST_PRIVATE_USER,
      env.BERTH_TEST_PRIVATE_PASSWORD,
      env.BERTH_TEST_PRIVATE_CA,
    ];
    if (!tls || !user || !secret || !caFile)
      throw new Error('private registries not configured: run scripts/test-env.sh');
    const image = `${tls}/private/busybox:latest`;
    docker(['rmi', '-f', image]);

    const { page } = await newPage(browser, server.baseUrl);
    await signIn(page, EMAIL, password, { path: '/#/settings/registries' });
    await expectRouteName(page, 'Registries');
    await page.getByRole('button', { name: 'Add registry' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add registry' });
    await dialog.getByLabel(/^Name/).fill('Private TLS');
    await dialog.getByLabel('Server address').fill(tls);
    await dialog.getByLabel('Username', { exact: true }).fill(user);
    await dialog.getByLabel('Password or token').fill(secret);
    // Without its CA the test says TLS is what failed; with it the registry is reached.
    await dialog.getByRole('button', { name: 'Test' }).click();
    await dialog.getByRole('status').getByText('TLS', { exact: true }).waitFor({ timeout: 30_000 });
    await dialog.getByLabel('CA certificate (optional)').fill(fs.readFileSync(caFile, 'utf8'));
    await dialog.getByRole('button', { name: 'Test' }).click();
    await dialog.getByRole('status').getByText('Registry reached').waitFor({ timeout: 30_000 });
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const table = page.getByRole('table', { name: 'Registries' });
    await table.getByRole('cell', { name: 'Private TLS', exact: true }).waitFor();
    expect(await page.content()).not.toContain(secret);

    await page.getByRole('button', { name: 'Browse Private TLS' }).click();
    await expectRouteName(page, 'Registry');
    await page.getByText('private/busybox', { exact: true }).click();
    await page.getByRole('button', { name: 'Pull private/busybox:latest' }).click();
    const pull = page.getByRole('dialog', { name: 'Pull Image' });
    await expect.poll(() => pull.getByLabel('Image').inputValue()).toBe(image);
    await pull
      .getByRole('note', { name: 'Registry credential' })
      .getByText(/stored credential "Private TLS"/)
      .waitFor();
    await pull.getByRole('button', { name: 'Pull', exact: true }).click();
    await pull.getByRole('button', { name: 'Close' }).waitFor({ timeout: 60_000 });
    expect(docker(['image', 'inspect', image]).status).toBe(0);

    // Removing asks first (the shared row dialog), says it is done and the row goes.
    await page.goto(`${server.baseUrl}/#/settings/registries`);
    await page.getByRole('button', { name: 'Remove Private TLS' }).click();
    const confirm = page.getByRole('dialog', { name: 'Remove Private TLS?' });
    await confirm.getByText('pulled anonymously afterwards').waitFor();
    await confirm.getByRole('button', { name: 'Remove' }).click();
    await page.getByText('Registry Private TLS removed.').waitFor();
    await table.getByRole('cell', { name: 'Private TLS', exact: true }).waitFor({ state: 'detached' });
  });
});
