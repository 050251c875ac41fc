import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dockerCli, dockerCliAsync, IDLE_COMMAND, testEngine, tryDockerCli } from '../server/test/helpers/engine';
import { expectRouteName, launchBrowser, newPage, signIn } from './helpers/browser';
import { REPO_ROOT, startServer, type TestServer } from './helpers/server';

const EMAIL = 'admin@berth.local';
const PASSWORD = 'berth-e2e-apps-password';
const SHOTS = path.join(REPO_ROOT, 'test-results');

const made: string[] = [];
const uniqueName = () => `berth-t-e2e-${Math.random().toString(36).slice(2, 8)}`;

function startApp(script: string, extra: string[] = []): string {
  const name = uniqueName();
  made.push(name);
  dockerCli(['run', '-d', '--name', name, '--label', 'berth.test=1', ...extra, testEngine().image, 'sh', '-c', script]);
  return name;
}

/** A busybox app that prints a 'tick-' line three times a second. */
const startTicker = () => startApp('while true; do echo tick-$RANDOM; sleep 0.3; done');

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
    await expectRouteName(page, 'Dashboard');

    // The dashboard shows a card for the running app, with whole-number percentages once measured.
    const card = page.locator('[data-testid="app-card"][data-measured="true"]').filter({ hasText: name });
    await card.waitFor({ timeout: 20_000 });
    await page
      .getByRole('region', { name: 'Host' })
      .getByTestId('host-counts')
      .filter({ hasText: /\d+ running/ })
      .waitFor();
    expect(await card.getByTestId('cpu-percent').textContent()).toMatch(/^\d+%/);
    expect(await card.getByTestId('memory-percent').textContent()).toMatch(/^\d+%\s+[\d.]+ \w+ \/ [\d.]+ \w+$/);
    await shot(page, 'apps-dashboard.png');

    await card.getByRole('link', { name }).click();
    await expectRouteName(page, 'Info');
    expect(new URL(page.url()).hash).toBe(`#/apps/${name}/info`);
    const shortId = dockerCli(['container', 'inspect', '--format', '{{.Id}}', name]).trim().slice(0, 10);
    await page.getByText(shortId, { exact: true }).waitFor();
    await shot(page, 'apps-info.png');

    await page.getByRole('tab', { name: 'Processes' }).click();
    await expectRouteName(page, 'Processes');
    const processes = page.getByRole('table', { name: 'Processes' });
    await processes
      .getByRole('row')
      .filter({ hasText: 'while true; do echo tick' })
      .first()
      .waitFor({ timeout: 15_000 });
    expect(await processes.getByRole('columnheader').allTextContents()).toContain('PID');

    await page.getByRole('tab', { name: 'Logs' }).click();
    await expectRouteName(page, 'Logs');
    await page
      .locator('[data-log-line]')
      .filter({ hasText: /^tick-\d+$/ })
      .first()
      .waitFor({ timeout: 15_000 });
    await shot(page, 'apps-logs.png');

    // The dashboard's sparkline read the 10-minute history already; the tab reads it afresh (issue 39 #4).
    const historyOf = (range: string) =>
      page.waitForRequest((r) => r.url().includes(`/apps/${name}/stats/history?range=${range}`), { timeout: 15_000 });
    const opened = historyOf('10m');
    await page.getByRole('tab', { name: 'Stats' }).click();
    await expectRouteName(page, 'Stats');
    await opened;
    const cpuChart = page.getByRole('img', { name: 'CPU usage chart' });
    await cpuChart.waitFor({ timeout: 15_000 });
    // The chart opens filled from the kept history (the app has run for a while by now): more than the live stream's one first sample.
    expect(Number(await cpuChart.getAttribute('data-points'))).toBeGreaterThanOrEqual(2);
    await page.getByRole('img', { name: 'Memory usage chart' }).waitFor();
    expect(await page.getByTestId('cpu-numbers').textContent()).toMatch(/^Current \d+% · Max \d+%$/);
    // The axis spans the chosen range, and a legend says what the lines are.
    expect(await cpuChart.getAttribute('data-span')).toBe('600');
    await page.getByTestId('chart-legend').first().getByText('Solid: One reading a second').waitFor();
    await shot(page, 'apps-stats.png');
    const hour = historyOf('1h');
    await page.getByText('1 hour', { exact: true }).click();
    await hour;
    await page.getByTestId('chart-legend').first().getByText('Dashed: Highest reading of each 10 s').waitFor();
    await expect.poll(() => cpuChart.getAttribute('data-span')).toBe('3600');
    const again = historyOf('10m');
    await page.getByText('10 min', { exact: true }).click();
    await again;

    // Stop from the header: busybox's sh ignores SIGTERM, so the engine kills it after its grace period.
    await page.getByRole('button', { name: 'Stop', exact: true }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `stop ${name} ...` })
      .waitFor();
    await page
      .getByTestId('app-status')
      // The exit code, as the docker CLI shows it (issue 39 #5): sh ignored SIGTERM and was killed.
      .filter({ hasText: /^exited \(137\)$/ })
      .first()
      .waitFor({ timeout: 30_000 });
    expect(dockerCli(['container', 'inspect', '--format', '{{.State.Status}}', name]).trim()).toBe('exited');
    await page.getByText('Start the app to view stats').waitFor();
    await page.getByRole('tab', { name: 'Logs' }).click();
    await page.getByText('Start the app to view logs').waitFor();
    await page.getByRole('tab', { name: 'Processes' }).click();
    await page.getByText('Start the app to view processes').waitFor();
    await page.getByRole('tab', { name: 'Info' }).click();
    await page.getByText('Start the app to view ports').waitFor();

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

  it('shows an app started from the docker CLI while /apps is open, opens it by keyboard, and runs the row menu actions', async () => {
    const { context, page } = await newPage(browser, server.baseUrl);
    await signIn(page, EMAIL, PASSWORD);
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Applications', exact: true })
      .click();
    await expectRouteName(page, 'View Applications');
    await page.getByRole('table', { name: 'Applications' }).waitFor();

    const name = startTicker();
    const row = page.getByRole('row').filter({ hasText: name });
    // The stats stream reports the new app within a second or two (the list's fallback poll is
    // 10 s); the margin is for a busy test machine.
    await row.waitFor({ timeout: 20_000 });
    await row.getByText('running', { exact: true }).waitFor();
    expect(await row.textContent()).toContain(testEngine().image);
    await shot(page, 'apps-list.png');

    // The keyboard opens an app: the name is a link (Tab reaches it, Enter follows it), and the menu has View.
    await row.getByRole('link', { name, exact: true }).focus();
    await page.keyboard.press('Enter');
    await expectRouteName(page, 'Info');
    expect(page.url()).toMatch(new RegExp(`#/apps/${name}/info$`));
    await page.goBack();
    await row.getByRole('button', { name: `Actions for ${name}` }).click();
    await page.getByRole('menuitem', { name: 'View' }).click();
    await expectRouteName(page, 'Info');
    await page.goBack();

    await row.getByRole('button', { name: `Actions for ${name}` }).click();
    await page.getByRole('menuitem', { name: 'Stop' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `stop ${name} ...` })
      .waitFor();
    await row.getByText(/^exited \(\d+\)$/).waitFor({ timeout: 30_000 });

    await row.getByRole('button', { name: `Actions for ${name}` }).click();
    await page.getByRole('menuitem', { name: 'Remove' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('All non-persistent data will be removed').waitFor();
    await dialog.getByRole('button', { name: 'Remove' }).click();
    await row.waitFor({ state: 'detached', timeout: 15_000 });
    expect(existsInEngine(name)).toBe(false);
    await context.close();
  });

  it('keeps the log of an app that floods it virtualised, capped at 10,000 lines, following, and the page responsive', async () => {
    // A quarter of a core still prints thousands of lines a second, one server-sent event each.
    const name = startApp('i=0; while true; do i=$((i+1)); echo flood-$i; done', ['--cpus', '0.25']);
    const { context, page } = await newPage(browser, server.baseUrl);
    await signIn(page, EMAIL, PASSWORD);
    await page.goto(`/#/apps/${name}/logs`);
    await expectRouteName(page, 'Logs');
    await page
      .locator('[data-log-line]')
      .filter({ hasText: /^flood-\d+$/ })
      .first()
      .waitFor({ timeout: 15_000 });
    // More than 10,000 lines have come: only the newest 10,000 (the default) are kept.
    await page.getByText('10000 lines (the newest 10000 are kept)').waitFor({ timeout: 60_000 });
    // Only the rows in view (plus overscan) are in the DOM, however many lines arrived.
    expect(await page.locator('[data-log-line]').count()).toBeLessThan(100);
    // The main thread stays free while lines keep coming: eight zero-delay timers, 150 ms
    // apart, each fire promptly. (Read one event at a time, such a flood kept timers and
    // clicks waiting for seconds; hence the fetch transport.)
    const timing = await page.evaluate(async () => {
      const started = performance.now();
      const lags: number[] = [];
      for (let i = 0; i < 8; i++) {
        const t0 = performance.now();
        lags.push(await new Promise<number>((resolve) => setTimeout(() => resolve(performance.now() - t0), 0)));
        await new Promise((resolve) => setTimeout(resolve, 150));
      }
      return { median: lags.sort((a, b) => a - b)[4]!, total: performance.now() - started };
    });
    expect(timing.median).toBeLessThan(250);
    expect(timing.total).toBeLessThan(5000);
    // It follows the end...
    const view = page.getByTestId('log-view');
    const fromBottom = () => view.evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight);
    expect(await fromBottom()).toBeLessThan(60);
    // ...until the user scrolls up; then it stays there and offers to follow again.
    await view.evaluate((el) => el.scrollTo({ top: 0 }));
    await page.getByRole('button', { name: 'Follow' }).waitFor();
    await page.waitForTimeout(1000);
    expect(await fromBottom()).toBeGreaterThan(1000);
    await page.getByRole('button', { name: 'Follow' }).click();
    await page.waitForTimeout(1000);
    expect(await fromBottom()).toBeLessThan(60);

    // And it still answers clicks.
    await page.getByRole('tab', { name: 'Stats' }).click();
    await expectRouteName(page, 'Stats');
    await page.getByRole('img', { name: 'CPU usage chart' }).waitFor({ timeout: 15_000 });
    tryDockerCli(['rm', '-f', name]);
    await context.close();
  }, 150_000);
  it('shows health in the list (column and filter), the header and the Health panel, and why an exited app stopped (issue 36)', async () => {
    const sick = startApp('while true; do sleep 1; done', [
      '--health-cmd',
      'echo probe-output-sick; exit 1',
      '--health-interval',
      '1s',
      '--health-retries',
      '1',
    ]);
    const ended = uniqueName();
    made.push(ended);
    tryDockerCli([
      'run',
      '--name',
      ended,
      '--label',
      'berth.test=1',
      testEngine().image,
      'sh',
      '-c',
      'echo last-words; exit 3',
    ]);
    const { context, page } = await newPage(browser, server.baseUrl);
    await signIn(page, EMAIL, PASSWORD);
    await page.goto('/#/apps');
    const table = page.getByRole('table', { name: 'Applications' });
    await table.waitFor();
    const row = table.getByRole('row').filter({ hasText: sick });
    // The list polls every 10 s; the healthcheck decides within about two seconds.
    await row.getByTestId('app-health').filter({ hasText: 'unhealthy' }).waitFor({ timeout: 30_000 });

    await page.getByRole('textbox', { name: 'Health' }).click();
    await page.getByRole('option', { name: 'healthy', exact: true }).click();
    await row.waitFor({ state: 'detached' });
    await page.getByRole('textbox', { name: 'Health' }).click();
    await page.getByRole('option', { name: 'unhealthy', exact: true }).click();
    await row.waitFor();
    expect(await table.getByRole('row').filter({ hasText: ended }).count()).toBe(0);

    await page.goto(`/#/apps/${sick}/info`);
    await page.getByRole('heading', { name: 'Health', exact: true }).waitFor();
    expect(await page.getByTestId('app-health').first().textContent()).toBe('unhealthy');
    await page.getByTestId('health-command').filter({ hasText: 'echo probe-output-sick; exit 1' }).waitFor();
    const probes = page.getByRole('table', { name: 'Last probes' });
    await probes.getByRole('row').filter({ hasText: 'probe-output-sick' }).first().waitFor();
    expect(await probes.getByRole('row').count()).toBeLessThanOrEqual(6);
    await shot(page, 'apps-health.png');

    await page.goto(`/#/apps/${ended}/info`);
    const diagnosis = page.getByTestId('diagnosis');
    await diagnosis.getByText('Error: the main process exited with code 3.').waitFor({ timeout: 15_000 });
    expect(await diagnosis.getByTestId('diagnosis-lines').textContent()).toContain('last-words');
    await shot(page, 'apps-diagnosis.png');

    // Its links: the Logs tab showing the window before the stop, then back to live (not running: nothing to follow).
    await diagnosis.getByTestId('diagnosis-logs-at').click();
    await page.getByTestId('log-window').waitFor();
    expect(page.url()).toMatch(new RegExp(`#/apps/${ended}/logs\\?since=.+&until=.+`));
    await page.getByText('last-words').first().waitFor();
    await page.getByRole('button', { name: 'Back to live' }).click();
    await page.getByTestId('log-window').waitFor({ state: 'detached' });
    expect(page.url()).not.toContain('since=');
    // The stats at the stop: the range holding it, with the stop marked.
    await page.goto(`/#/apps/${ended}/info`);
    await page.getByTestId('diagnosis-stats-at').click();
    await page
      .getByTestId('stats-at')
      .getByText(/The dashed red line marks/)
      .waitFor();
    expect(page.url()).toMatch(new RegExp(`#/apps/${ended}/stats\\?at=`));
    expect(await page.getByRole('radio', { name: '10 min' }).isChecked()).toBe(true);
    await page.getByRole('button', { name: 'Back to live' }).click();
    await page.getByTestId('stats-at').waitFor({ state: 'detached' });

    // Auto-heal of the unhealthy app (issue 36): on, after 1 failed check, at most 1 restart an hour, no back-off.
    await page.goto(`/#/apps/${sick}/info`);
    const heal = page
      .locator('.mantine-Paper-root')
      .filter({ has: page.getByRole('heading', { name: 'Auto-heal', exact: true }) })
      .last();
    await heal.getByRole('textbox', { name: 'Auto-heal', exact: true }).click();
    await page.getByRole('option', { name: 'On', exact: true }).click();
    await heal.getByRole('textbox', { name: 'Failed checks' }).fill('1');
    await heal.getByRole('textbox', { name: 'Restarts an hour' }).fill('1');
    await heal.getByRole('textbox', { name: 'Back-off (s)' }).fill('0');
    await heal.getByRole('button', { name: 'Save auto-heal' }).click();
    await page.getByText('Auto-heal saved').waitFor();
    await heal
      .getByTestId('auto-heal-effective')
      .getByText(
        /In effect: on, restart after 1 failed checks, at most 1 restarts an hour, back-off 0 s\. Restarts in the last hour: 0\./,
      )
      .waitFor();
    // The engine says unhealthy only on a change: restarted by hand it turns unhealthy again, auto-heal
    // restarts it once, and when it turns unhealthy once more gives up.
    dockerCli(['restart', '-t', '0', sick]);
    // The panel reads its state again every 10 s.
    const gaveUp = page.getByTestId('auto-heal-gave-up');
    await gaveUp.waitFor({ timeout: 90_000 });
    await gaveUp.getByText(/^Gave up at /).waitFor();
    await heal
      .getByTestId('auto-heal-effective')
      .getByText(/Restarts in the last hour: 1 \(last /)
      .waitFor();
    await shot(page, 'apps-auto-heal-gave-up.png');
    await gaveUp.getByRole('button', { name: 'Reset' }).click();
    await page.getByText('Auto-heal reset: it tries again').waitFor();
    await gaveUp.waitFor({ state: 'detached' });
    await context.close();
  }, 240_000);

  it('draws only a window of the dashboard cards and still finds a far one by filtering and by scrolling (issue 40)', async () => {
    const prefix = uniqueName();
    const names = Array.from({ length: 10 }, (_, i) => `${prefix}-${String(i).padStart(2, '0')}`);
    made.push(...names);
    await Promise.all(
      names.map((n) =>
        dockerCliAsync([
          'run',
          '-d',
          '--name',
          n,
          '--label',
          'berth.test=1',
          '--network',
          'none',
          testEngine().image,
          ...IDLE_COMMAND,
        ]),
      ),
    );
    // A phone-sized screen: one card a row, two or three on screen.
    const { context, page } = await newPage(browser, server.baseUrl, { width: 420, height: 700 });
    await signIn(page, EMAIL, PASSWORD);
    const grid = page.getByRole('list', { name: 'Running applications' });
    await expect
      .poll(async () => Number(await grid.getAttribute('data-cards')), { timeout: 60_000 })
      .toBeGreaterThanOrEqual(10);
    const total = Number(await grid.getAttribute('data-cards'));
    const drawn = await grid.getByTestId('app-card').count();
    expect(drawn).toBeGreaterThan(0);
    expect(drawn).toBeLessThan(total);
    // Each drawn card says its place in the whole list.
    expect(await grid.getByRole('listitem').first().getAttribute('aria-setsize')).toBe(String(total));

    // The filter reaches a far app at once, as a link.
    const last = names.at(-1)!;
    await page.getByLabel('Filter running applications').fill(last);
    await grid.getByRole('link', { name: last, exact: true }).waitFor();
    expect(await grid.getByTestId('app-card').count()).toBe(1);
    await page.getByLabel('Filter running applications').fill('');

    // Scrolling to the end draws the last cards and lets go of the first.
    await grid.locator('[aria-posinset="1"]').waitFor();
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await grid.locator(`[aria-posinset="${total}"]`).waitFor();
    expect(await grid.locator('[aria-posinset="1"]').count()).toBe(0);
    await context.close();
  }, 240_000);
});
