import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dockerCli, testEngine, removeContainersNamed } from '../server/test/helpers/engine';
import { expectRouteName, launchBrowser, newPage, signIn } from './helpers/browser';
import { startServer, type TestServer } from './helpers/server';

const EMAIL = 'admin@berth.local';
const PASSWORD = 'berth-e2e-templates-pw';
const PREFIX = `berth-t-tpl-${Math.random().toString(36).slice(2, 8)}`;
const TITLE = 'Berth E2E Catalogue';
const SLOW = 240_000;
const LONG_DESCRIPTION = `A tiny busybox app for the end-to-end test. ${'It sleeps for an hour and does nothing else at all. '.repeat(4)}`;

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const field = (page: Page, label: string) =>
  page.getByRole('textbox', { name: new RegExp(`^${escape(label)}\\s*\\*?$`) });
const button = (page: Page, name: string) => page.getByRole('button', { name, exact: true });
const card = (page: Page, title: string) => page.getByRole('group', { name: title, exact: true });

async function fillAndLeave(page: Page, label: string, value: string) {
  await field(page, label).fill(value);
  await field(page, label).blur();
}

/** A catalogue in Portainer v2 format, served on loopback: two good apps and one entry without a title. */
function catalogue(base: string, hostDir: string) {
  return {
    version: '2',
    templates: [
      {
        type: 1,
        title: 'Berth Busybox',
        name: `${PREFIX}-app`,
        description: LONG_DESCRIPTION,
        note: 'Runs sh -c "sleep 3600".',
        platform: 'linux',
        logo: `${base}/missing-logo.png`,
        image: process.env.BERTH_TEST_IMAGE,
        command: 'sh -c "sleep 3600"',
        restart_policy: 'unless-stopped',
        ports: ['8080/tcp'],
        volumes: [{ container: '/data', bind: hostDir }],
        env: [{ name: 'GREETING', label: 'Greeting', default: '!berthgreet' }],
        labels: [{ name: 'berth.test', value: '1' }],
      },
      {
        type: 1,
        title: 'Another App',
        description: 'The second app.',
        platform: 'linux',
        image: process.env.BERTH_TEST_IMAGE,
      },
      { type: 1, image: 'busybox' },
    ],
  };
}

interface Inspect {
  Config: { Env: string[]; Cmd: string[]; Labels: Record<string, string> };
  HostConfig: { Binds: string[] | null; RestartPolicy: { Name: string } };
}

describe('templates', () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  let catalogueServer: http.Server;
  let catalogueUrl: string;
  let hostDir: string;

  beforeAll(async () => {
    testEngine();
    hostDir = fs.mkdtempSync(path.join(os.tmpdir(), `${PREFIX}-`));
    catalogueServer = http.createServer((req, res) => {
      if (req.url === '/catalogue.json') {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(
          JSON.stringify(
            catalogue(`http://127.0.0.1:${(catalogueServer.address() as { port: number }).port}`, hostDir),
          ),
        );
      } else {
        res.writeHead(404).end();
      }
    });
    await new Promise<void>((resolve) => catalogueServer.listen(0, '127.0.0.1', resolve));
    catalogueUrl = `http://127.0.0.1:${(catalogueServer.address() as { port: number }).port}/catalogue.json`;
    server = await startServer({
      env: {
        ADMIN_EMAIL: EMAIL,
        ADMIN_PASSWORD: PASSWORD,
        TEMPLATE_FETCH_ALLOW_LOOPBACK: 'true',
      },
    });
    browser = await launchBrowser();
    ({ page } = await newPage(browser, server.baseUrl));
    await signIn(page, EMAIL, PASSWORD);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await new Promise((resolve) => catalogueServer?.close(resolve));
    removeContainersNamed(PREFIX);
    if (hostDir) fs.rmSync(hostDir, { recursive: true, force: true });
  });

  it(
    'checks the new-template rules and adds a catalogue, reporting the entry it skipped',
    async () => {
      await page.goto('/#/templates');
      await expectRouteName(page, 'View Templates');
      await page.getByText('No templates available').waitFor();
      await page.getByRole('link', { name: 'Add a template' }).click();
      await expectRouteName(page, 'New Template');
      await page.getByText('No templates yet').waitFor();

      const submit = button(page, 'Submit');
      await expect.poll(() => submit.isDisabled()).toBe(true);
      await fillAndLeave(page, 'Title', ' a ');
      await page.getByText('Length between 2 and 255 Characters.').waitFor();
      await fillAndLeave(page, 'URL', '');
      await page.getByText('Required.', { exact: true }).waitFor();
      await fillAndLeave(page, 'URL', 'ftp://127.0.0.1/catalogue.json');
      await page.getByText('Invalid URL', { exact: true }).waitFor();
      await fillAndLeave(page, 'URL', 'http://127.0.0.1');
      await page.getByText('Invalid URL', { exact: true }).waitFor();
      await fillAndLeave(page, 'Title', TITLE);
      await expect.poll(() => submit.isDisabled()).toBe(true);

      await fillAndLeave(page, 'URL', catalogueUrl);
      await expect.poll(() => submit.isEnabled()).toBe(true);
      await submit.click();
      await expectRouteName(page, 'View Templates');
      await page.getByRole('cell', { name: TITLE, exact: true }).waitFor();
      await page.getByText('1 catalogue entry was skipped').waitFor();
      await page.getByText('title is missing', { exact: false }).waitFor();
    },
    SLOW,
  );

  it(
    'shows a template: title, url, cards sorted by title with a logo fallback, search and the item dialog',
    async () => {
      await page.goto('/#/templates');
      await page.getByRole('cell', { name: TITLE, exact: true }).click();
      await expectRouteName(page, 'Template Details');
      await page.getByRole('heading', { name: TITLE }).waitFor();
      await page.getByRole('link', { name: catalogueUrl }).waitFor();

      await card(page, 'Berth Busybox').waitFor();
      const titles = await page
        .locator('[role="group"][aria-label]')
        .evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')));
      expect(titles).toEqual(['Another App', 'Berth Busybox']);
      const busybox = card(page, 'Berth Busybox');
      const text = await busybox.innerText();
      expect(text).toContain(`${LONG_DESCRIPTION.slice(0, 100)}`);
      expect(text).not.toContain(LONG_DESCRIPTION.trim());
      expect(text).toContain('…');
      await busybox.getByLabel('No logo').waitFor();

      await page.getByLabel('Search items').fill('BUSY');
      await expect.poll(() => page.locator('[role="group"][aria-label]').count()).toBe(1);
      await page.getByLabel('Search items').fill('');
      await expect.poll(() => page.locator('[role="group"][aria-label]').count()).toBe(2);

      await busybox.getByRole('button', { name: 'View' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByText(LONG_DESCRIPTION.trim()).waitFor();
      for (const t of [
        'Runs sh -c "sleep 3600".',
        `${PREFIX}-app`,
        process.env.BERTH_TEST_IMAGE!,
        'linux',
        'sh -c sleep 3600',
        '8080/tcp',
        hostDir,
        '/data',
        'Greeting',
        'GREETING',
        '!berthgreet',
      ]) {
        await dialog.getByText(t, { exact: true }).first().waitFor();
      }
      // A local registry has no public page to link to.
      expect(await dialog.getByRole('link', { name: process.env.BERTH_TEST_IMAGE! }).count()).toBe(0);
      await dialog.getByRole('button', { name: 'Close' }).first().click();
      await dialog.waitFor({ state: 'hidden' });
    },
    SLOW,
  );

  it(
    'updates a template from its source through the row menu',
    async () => {
      await page.goto('/#/templates');
      await page.getByRole('button', { name: `Actions for ${TITLE}` }).click();
      await page.getByRole('menuitem', { name: 'Update' }).click();
      await page.getByText(`Template '${TITLE}' updated with 2 items.`, { exact: false }).waitFor();
    },
    SLOW,
  );

  it(
    'saves a template variable in settings; Save is disabled while a row is invalid',
    async () => {
      await page.goto('/#/settings/templateVariables');
      await expectRouteName(page, 'Template Variables');
      const save = button(page, 'Save');
      await save.waitFor();
      const rows = await page.getByRole('textbox', { name: /^Variable \d+$/ }).count();
      await button(page, 'Add row').click();
      const n = rows + 1;
      await expect.poll(() => save.isDisabled()).toBe(true);
      await fillAndLeave(page, `Variable ${n}`, '');
      await page.getByText('Variable is required.').waitFor();
      await fillAndLeave(page, `Variable ${n}`, '!berthgreet');
      await fillAndLeave(page, `Replacement ${n}`, '');
      await page.getByText('Replacement is required.').waitFor();
      await expect.poll(() => save.isDisabled()).toBe(true);
      await fillAndLeave(page, `Replacement ${n}`, 'hi from berth');
      await expect.poll(() => save.isEnabled()).toBe(true);
      await save.click();
      await page.getByText('Saved', { exact: true }).waitFor();

      await page.reload();
      await expect.poll(() => field(page, `Variable ${n}`).inputValue()).toBe('!berthgreet');
      expect(await field(page, `Replacement ${n}`).inputValue()).toBe('hi from berth');
    },
    SLOW,
  );

  it(
    'deploys an item from Deploy from Template; the variable is replaced on deploy',
    async () => {
      await page.goto('/#/apps/deploy');
      await page.getByRole('link', { name: 'From Template' }).click();
      await expectRouteName(page, 'Deploy from Template');
      const tab = page.getByRole('tab', { name: new RegExp(`^${escape(TITLE)}\\s*2$`) });
      await tab.waitFor();
      await page.getByLabel('Search items').fill('busy');
      await expect.poll(() => page.locator('[role="group"][aria-label]').count()).toBe(1);
      await card(page, 'Berth Busybox').getByRole('link', { name: 'Deploy' }).click();
      await expectRouteName(page, 'Deploy');
      expect(await page.getByRole('link', { name: 'From Template' }).count()).toBe(0);
      await expect.poll(() => field(page, 'Name').inputValue()).toBe(`${PREFIX}-app`);
      expect(await field(page, 'Image').inputValue()).toBe(process.env.BERTH_TEST_IMAGE);
      await button(page, 'Continue').click();
      expect(await field(page, 'Container port 1').inputValue()).toBe('8080');
      // Published on a random host port would be fine, but this test keeps the host untouched.
      await button(page, 'Remove port 1').click();
      await button(page, 'Continue').click();
      expect(await field(page, 'Volume host 1').inputValue()).toBe(hostDir);
      await button(page, 'Continue').click();
      // Shown as written; the server replaces it.
      expect(await field(page, 'Variable value 1').inputValue()).toBe('!berthgreet');
      await button(page, 'Deploy').click();
      await expectRouteName(page, 'Info');

      const c = (JSON.parse(dockerCli(['inspect', `${PREFIX}-app`])) as Inspect[])[0]!;
      expect(c.Config.Env).toContain('GREETING=hi from berth');
      expect(c.Config.Cmd).toEqual(['sh', '-c', 'sleep 3600']);
      expect(c.Config.Labels['berth.test']).toBe('1');
      expect(c.HostConfig.Binds).toEqual([expect.stringMatching(new RegExp(`^${escape(hostDir)}:/data`))]);
      expect(c.HostConfig.RestartPolicy.Name).toBe('unless-stopped');
    },
    SLOW,
  );

  it(
    'deletes the template after confirmation',
    async () => {
      await page.goto('/#/templates');
      await page.getByRole('button', { name: `Actions for ${TITLE}` }).click();
      await page.getByRole('menuitem', { name: 'Delete' }).click();
      const dialog = page.getByRole('dialog', { name: 'Delete the template?' });
      await dialog.getByText('cannot be revoked', { exact: false }).waitFor();
      await dialog.getByRole('button', { name: 'Delete' }).click();
      await page.getByText('No templates available').waitFor();
      expect(await page.getByRole('cell', { name: TITLE, exact: true }).count()).toBe(0);
    },
    SLOW,
  );
});
