import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { dockerCli, testEngine, tryDockerCli } from '../server/test/helpers/engine';
import { ConsoleWatch, seriousViolations } from './helpers/audit';
import { expectRouteName, newPage, signIn } from './helpers/browser';
import { withConsole, type ConsoleRun } from './helpers/console';
import { REPO_ROOT } from './helpers/server';

const name = `berth-t-e2e-term-${Math.random().toString(36).slice(2, 8)}`;

/** The terminal's rows as xterm renders them (its DOM renderer), trailing spaces dropped. */
const screenRows = async (page: Page) =>
  (await page.locator('[data-testid="terminal"] .xterm-rows > div').allTextContents()).map((r) =>
    r.replace(/\s+$/, ''),
  );

/** Types a command into the terminal and waits for a row that matches `answer`; answers the last such row. */
async function run(page: Page, command: string, answer: RegExp): Promise<string> {
  await page.keyboard.type(command);
  await page.keyboard.press('Enter');
  let row: string | undefined;
  await expect
    .poll(async () => (row = (await screenRows(page)).filter((r) => answer.test(r)).at(-1)), { timeout: 20_000 })
    .toBeDefined();
  return row!;
}

describe('web terminal', () => {
  let run0: ConsoleRun;
  withConsole((r) => (run0 = r));
  afterAll(() => {
    tryDockerCli(['rm', '-f', name]);
  });

  it('opens the Terminal tab of a running app, runs a command, and reflows when the window narrows', async () => {
    dockerCli([
      'run',
      '-d',
      '--name',
      name,
      '--label',
      'berth.test=1',
      '--stop-timeout',
      '1',
      testEngine().image,
      'sleep',
      '3600',
    ]);
    const { context, page } = await newPage(run0.browser, run0.server.baseUrl, { width: 1280, height: 800 });
    await signIn(page, 'admin@berth.local', run0.password);
    await page.goto(`/#/apps/${name}/info`);
    await expectRouteName(page, 'Info');
    const watch = new ConsoleWatch(page);
    await page.getByRole('tab', { name: 'Terminal' }).click();
    await expectRouteName(page, 'Terminal');
    await page.getByRole('status').filter({ hasText: 'Connected' }).waitFor({ timeout: 20_000 });
    await page.locator('[data-testid="terminal"] .xterm-screen').click();

    expect(await run(page, 'echo $((6*7))', /^42$/)).toBe('42');
    const wide = Number((await run(page, 'stty size', /^\d+ \d+$/)).split(' ')[1]);
    fs.mkdirSync(path.join(REPO_ROOT, 'test-results'), { recursive: true });
    await page.screenshot({ path: path.join(REPO_ROOT, 'test-results', 'terminal.png') });
    expect(await seriousViolations(page)).toEqual([]);
    expect(watch.take()).toEqual({ messages: [], failedApi: [] });

    await page.setViewportSize({ width: 700, height: 800 });
    let narrow = wide;
    await expect
      .poll(
        async () => {
          narrow = Number((await run(page, 'stty size', /^\d+ \d+$/)).split(' ')[1]);
          return narrow;
        },
        { timeout: 20_000 },
      )
      .toBeLessThan(wide);
    expect(narrow).toBeGreaterThan(20);
    await context.close();
  });
});
