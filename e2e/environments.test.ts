import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Browser } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { expectRouteName, newPage, signIn } from './helpers/browser';
import { withConsole } from './helpers/console';
import type { TestServer } from './helpers/server';

const env = process.env;
const EMAIL = 'admin@berth.local';

/** The docker CLI against the harness's remote (TLS) engine, through its own unix socket. */
const remoteCli = (args: string[]) =>
  spawnSync(env.BERTH_TEST_DOCKER_CLI || 'docker', ['--host', env.BERTH_TEST_REMOTE_SOCKET!, ...args], {
    encoding: 'utf8',
    timeout: 60_000,
  });

describe.skipIf(!env.BERTH_TEST_REMOTE_HOST)('environments', () => {
  let server: TestServer;
  let browser: Browser;
  let password: string;
  withConsole((run) => ({ server, browser, password } = run));
  const app = `berth-t-e2e-env-${randomBytes(4).toString('hex')}`;
  afterAll(() => void remoteCli(['rm', '-f', app]));

  it('adds the TLS engine in Settings, switches to it in the top bar and shows its apps', async () => {
    const run = remoteCli([
      'run',
      '-d',
      '--name',
      app,
      '--label',
      'berth.test=1',
      '--network',
      'host',
      env.BERTH_TEST_IMAGE!,
      'sleep',
      '3600',
    ]);
    expect(run.status, run.stderr).toBe(0);
    const tlsDir = env.BERTH_TEST_REMOTE_TLS_DIR!;
    const { page } = await newPage(browser, server.baseUrl);
    await signIn(page, EMAIL, password, { path: '/#/settings/environments' });
    await expectRouteName(page, 'Environments');
    await page.getByRole('table', { name: 'Environments' }).getByRole('cell', { name: 'Local', exact: true }).waitFor();

    await page.getByRole('button', { name: 'Add environment' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add environment' });
    await dialog.getByLabel('Name').fill('Remote TLS');
    // First a port nothing listens on: the refusal shows beside the Add button, in view, not at the form's top.
    await dialog.getByLabel('URL').fill('tcp://127.0.0.1:9');
    await dialog.getByLabel('CA certificate').fill(fs.readFileSync(path.join(tlsDir, 'ca.pem'), 'utf8'));
    await dialog.getByLabel('Client certificate').fill(fs.readFileSync(path.join(tlsDir, 'cert.pem'), 'utf8'));
    await dialog.getByLabel('Client key').fill(fs.readFileSync(path.join(tlsDir, 'key.pem'), 'utf8'));
    const add = dialog.getByRole('button', { name: 'Add', exact: true });
    await add.click();
    const refusal = dialog.getByRole('alert');
    await refusal.waitFor({ timeout: 30_000 });
    const [alertBox, addBox] = [(await refusal.boundingBox())!, (await add.boundingBox())!];
    expect(addBox.y - (alertBox.y + alertBox.height)).toBeLessThan(40);
    expect(alertBox.y).toBeGreaterThan(0);
    await dialog.getByLabel('URL').fill(env.BERTH_TEST_REMOTE_HOST!);
    await add.click();
    await dialog.waitFor({ state: 'hidden', timeout: 30_000 });
    // The success is said beside the Add environment button too.
    await page
      .getByRole('status')
      .getByText(/^Remote TLS added: Docker /)
      .waitFor();
    await page
      .getByRole('table', { name: 'Environments' })
      .getByRole('cell', { name: 'Remote TLS', exact: true })
      .waitFor();

    await page.getByRole('button', { name: 'Environment: Local' }).click();
    await page.getByRole('menuitem', { name: 'Remote TLS' }).click();
    await page.getByRole('button', { name: 'Environment: Remote TLS' }).waitFor();
    expect(new URL(page.url()).hash).toBe('#/e/remote-tls/settings/environments');

    await page.getByRole('link', { name: 'Applications' }).first().click();
    await expectRouteName(page, 'View Applications');
    expect(new URL(page.url()).hash).toBe('#/e/remote-tls/apps');
    await page.getByRole('table', { name: 'Applications' }).getByText(app).waitFor({ timeout: 30_000 });
  });

  it('shows one explanation with how to make the engine a swarm, and no form that cannot work (issue 39 #29)', async () => {
    const { context, page } = await newPage(browser, server.baseUrl);
    await signIn(page, EMAIL, password, { path: '/#/swarm/services/new' });
    for (const hash of ['#/swarm/services/new', '#/swarm', '#/swarm/secrets']) {
      await page.goto(`${server.baseUrl}/${hash}`);
      const region = page.getByRole('region', { name: 'Not a swarm' });
      await region.getByText('This engine is not part of a swarm').waitFor();
      await region.getByText('docker swarm init', { exact: true }).waitFor();
      expect(await page.getByRole('main').getByRole('textbox').count()).toBe(0);
      expect(await page.getByRole('main').getByRole('button').count()).toBe(0);
      expect(await page.getByText(/Conflict:/).count()).toBe(0);
    }
    await context.close();
  });
});
