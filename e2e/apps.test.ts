import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dockerCli, testEngine, tryDockerCli } from '../server/test/helpers/engine';
import { expectRouteName, launchBrowser, newPage, signIn } from './helpers/browser';
import { REPO_ROOT, startServer, type TestServer } from './helpers/server';

const EMAIL = 'admin@berth.local';
const PASSWORD = 'berth-e2e-apps-password';
const SHOTS = path.join(REPO_ROOT, 'test-results');

const made: string[] = [];
const uniqueName = () => `berth-t-e2e-${Math.random().toString(36).slice(2, 8)}`;

/** A busybox app that prints a 'tick-' line three times a second. */
function startTicker(): string {
  const name = uniqueName();
  made.push(name);
  const script = 'while true; do echo tick-$RANDOM; sleep 0.3; done';
  dockerCli(['run', '-d', '--name', name, '--label', 'berth.test=1', testEngine().image, 'sh', '-c', script]);
  return name;
}

const existsInEngine = (name: string) => tryDockerCli(['container', 'inspect', name]).status === 0;

async function shot(page: Page, file: string) {
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, file), fullPage: true });
}

describe('applications', () => {
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    server = await startServer({ env: { ADMIN_PASSWORD: PASSWORD } });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    for (const name of made) tryDockerCli(['rm', '-f', name]);
    await browser?.close();
    await server?.stop();
  });

  it('follows a running app from its dashboard card to its logs and stats, stops it and removes it', async () => {
    const name = startTicker();
    const { context, page } = await newPage(browser, server.baseUrl);
    await signIn(page, EMAIL, PASSWORD);
    await expectRouteName(page, 'Home');

    // The dashboard shows a card for the running app, with whole-number percentages.
    const card = page.getByTestId('app-card').filter({ hasText: name });
    await card.waitFor({ timeout: 20_000 });
    expect(await card.getByTestId('cpu-percent').textContent()).toMatch(/^\d+%/);
    expect(await card.getByTestId('memory-percent').textContent()).toMatch(/^\d+%\s+[\d.]+ \w+ \/ [\d.]+ \w+$/);
    await shot(page, 'apps-dashboard.png');

    await card.getByRole('link', { name }).click();
    await expectRouteName(page, 'Info');
    expect(new URL(page.url()).hash).toBe(`#/apps/${name}/info`);
    const shortId = dockerCli(['container', 'inspect', '--format', '{{.Id}}', name]).trim().slice(0, 10);
    await page.getByText(shortId, { exact: true }).waitFor();
    await shot(page, 'apps-info.png');

    await page.getByRole('tab', { name: 'Logs' }).click();
    await expectRouteName(page, 'Logs');
    await page.locator('[data-log-line]').filter({ hasText: /^tick-\d+$/ }).first().waitFor({ timeout: 15_000 });
    await shot(page, 'apps-logs.png');

    await page.getByRole('tab', { name: 'Stats' }).click();
    await expectRouteName(page, 'Stats');
    await page.getByRole('img', { name: 'CPU usage chart' }).waitFor({ timeout: 15_000 });
    await page.getByRole('img', { name: 'Memory usage chart' }).waitFor();
    expect(await page.getByTestId('cpu-numbers').textContent()).toMatch(/^Current \d+% · Max \d+%$/);
    await shot(page, 'apps-stats.png');

    // Stop from the header: busybox's sh ignores SIGTERM, so the engine kills it after its grace period.
    await page.getByRole('button', { name: 'Stop', exact: true }).click();
    await page.getByRole('status').filter({ hasText: `stop ${name} ...` }).waitFor();
    await page.getByTestId('app-status').filter({ hasText: /^exited$/ }).first().waitFor({ timeout: 30_000 });
    expect(dockerCli(['container', 'inspect', '--format', '{{.State.Status}}', name]).trim()).toBe('exited');
    await page.getByText('Start the app to view stats').waitFor();
    await page.getByRole('tab', { name: 'Logs' }).click();
    await page.getByText('Start the app to view logs').waitFor();

    await page.getByRole('button', { name: 'Remove', exact: true }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('All non-persistent data will be removed').waitFor();
    await dialog.getByRole('button', { name: 'Remove' }).click();
    await expectRouteName(page, 'View Applications');
    expect(new URL(page.url()).hash).toBe('#/apps');
    expect(existsInEngine(name)).toBe(false);
    await page.getByRole('table', { name: 'Applications' }).waitFor();
    expect(await page.getByRole('row').filter({ hasText: name }).count()).toBe(0);
    await context.close();
  });

  it('shows an app started from the docker CLI while /apps is open, and runs the row menu actions', async () => {
    const { context, page } = await newPage(browser, server.baseUrl);
    await signIn(page, EMAIL, PASSWORD, { path: '/#/apps' });
    await expectRouteName(page, 'View Applications');
    await page.getByRole('table', { name: 'Applications' }).waitFor();

    const name = startTicker();
    const row = page.getByRole('row').filter({ hasText: name });
    // The stats stream reports the new app within a second or two; the list's fallback poll is 10 s.
    await row.waitFor({ timeout: 9_000 });
    await row.getByText('running', { exact: true }).waitFor();
    expect(await row.textContent()).toContain(testEngine().image);
    await shot(page, 'apps-list.png');

    await row.getByRole('button', { name: `Actions for ${name}` }).click();
    await page.getByRole('menuitem', { name: 'Stop' }).click();
    await page.getByRole('status').filter({ hasText: `stop ${name} ...` }).waitFor();
    await row.getByText('exited', { exact: true }).waitFor({ timeout: 30_000 });

    await row.getByRole('button', { name: `Actions for ${name}` }).click();
    await page.getByRole('menuitem', { name: 'Remove' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('All non-persistent data will be removed').waitFor();
    await dialog.getByRole('button', { name: 'Remove' }).click();
    await row.waitFor({ state: 'detached', timeout: 15_000 });
    expect(existsInEngine(name)).toBe(false);
    await context.close();
  });
});
