import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { dockerCli, testEngine, tryDockerCli } from '../server/test/helpers/engine';
import { ConsoleWatch, seriousViolations } from './helpers/audit';
import { expectRouteName, launchBrowser, newPage, signIn } from './helpers/browser';
import { startServer, type TestServer } from './helpers/server';

/**
 * What a new user stumbles on, as one journey over every screen of the spec at a desktop
 * and a phone size. Each page must leave a clean console (no error, no warning, no failed API
 * call) and have no serious or critical axe-core violation.
 */

const EMAIL = 'admin@berth.local';
const PASSWORD = 'berth-e2e-ux-password';
const PREFIX = `berth-t-ux-${Math.random().toString(36).slice(2, 8)}`;
const APP = `${PREFIX}-busy`;
const PROJECT = `${PREFIX}-proj`;
const VOLUME = `${PREFIX}-vol`;
const NETWORK = `${PREFIX}-net`;
const TAG_A = `${PREFIX}-img:one`;
const TAG_B = `${PREFIX}-img:two`;
const SLOW = 600_000;
const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };

let logoRequests = 0;

/** A catalogue whose only item has an http:// logo, which the page's CSP could never load. */
function catalogue(base: string) {
  return {
    version: '2',
    templates: [
      {
        type: 1,
        title: 'Plain Logo App',
        name: `${PREFIX}-tpl`,
        description: 'Its logo is served over http.',
        logo: `${base}/logo.png`,
        platform: 'linux',
        image: testEngine().image,
      },
    ],
  };
}

interface Ids {
  image: string;
  templateId: number;
  itemId: number;
}

/** Every screen of the spec's route table, with what shows it is loaded. */
function pages(ids: Ids): { hash: string; name: string; ready?: (page: Page) => Promise<unknown> }[] {
  const row = (name: string) => (page: Page) => page.getByRole('row').filter({ hasText: name }).first().waitFor();
  return [
    {
      hash: '#/',
      name: 'Dashboard',
      ready: (p) =>
        p
          .locator('[data-testid="app-card"][data-measured="true"]')
          .filter({ hasText: APP })
          .waitFor({ timeout: 30_000 }),
    },
    { hash: '#/apps', name: 'View Applications', ready: row(APP) },
    { hash: '#/apps/deploy', name: 'Add Application' },
    {
      hash: '#/apps/templates',
      name: 'Deploy from Template',
      ready: (p) => p.getByText('Plain Logo App').first().waitFor(),
    },
    { hash: `#/apps/deploy/${ids.itemId}`, name: 'Deploy' },
    { hash: `#/apps/edit/${APP}`, name: 'Edit' },
    { hash: `#/apps/${APP}/info`, name: 'Info', ready: (p) => p.getByText(APP).first().waitFor() },
    {
      hash: `#/apps/${APP}/top`,
      name: 'Processes',
      ready: (p) => p.getByRole('table', { name: 'Processes' }).getByRole('row').nth(1).waitFor({ timeout: 20_000 }),
    },
    { hash: `#/apps/${APP}/logs`, name: 'Logs' },
    {
      hash: `#/apps/${APP}/stats`,
      name: 'Stats',
      ready: (p) => p.getByTestId('cpu-numbers').waitFor({ timeout: 30_000 }),
    },
    { hash: '#/templates', name: 'View Templates', ready: row('UX Catalogue') },
    { hash: '#/templates/new', name: 'New Template' },
    {
      hash: `#/templates/${ids.templateId}`,
      name: 'Template Details',
      ready: (p) => p.getByRole('group', { name: 'Plain Logo App' }).waitFor(),
    },
    { hash: '#/projects', name: 'View Projects', ready: row(PROJECT) },
    { hash: '#/projects/_/edit', name: 'New project' },
    { hash: '#/projects/_/from-git', name: 'New project from git' },
    {
      hash: `#/projects/${PROJECT}`,
      name: 'Project Details',
      ready: (p) => p.getByText('compose.yaml').first().waitFor(),
    },
    // The Tag column shows one tag per image (the others in its "+N" chip), so any row will do.
    { hash: '#/resources/images', name: 'Images', ready: (p) => p.getByRole('row').nth(1).waitFor() },
    {
      hash: `#/resources/images/${encodeURIComponent(ids.image)}`,
      name: 'Image Details',
      ready: (p) => p.getByText(TAG_B).first().waitFor(),
    },
    { hash: '#/resources/volumes', name: 'Volumes', ready: row(VOLUME) },
    { hash: `#/resources/volumes/${VOLUME}`, name: 'Volume Details' },
    { hash: '#/resources/networks', name: 'Networks', ready: row(NETWORK) },
    { hash: '#/resources/networks/new', name: 'New Network' },
    { hash: `#/resources/networks/${NETWORK}`, name: 'Network Details' },
    { hash: '#/user/info', name: 'User Info' },
    { hash: '#/user/changePassword', name: 'Change Password' },
    {
      hash: '#/settings/info',
      name: 'Server Info',
      ready: (p) => p.getByRole('table', { name: 'Server info' }).waitFor(),
    },
    { hash: '#/settings/theme', name: 'Theme' },
    { hash: '#/settings/templateVariables', name: 'Template Variables' },
    { hash: '#/settings/environments', name: 'Environments', ready: row('Local') },
    {
      hash: '#/settings/registries',
      name: 'Registries',
      ready: (p) => p.getByRole('table', { name: 'Registries' }).waitFor(),
    },
    { hash: '#/settings/prune', name: 'Prune' },
    { hash: '#/settings/git', name: 'Git' },
    { hash: '#/settings/update', name: 'Update' },
    {
      hash: '#/settings/notifications',
      name: 'Notifications',
      ready: (p) => p.getByRole('table', { name: 'Notification channels' }).waitFor(),
    },
    {
      hash: '#/settings/audit',
      name: 'Audit Log',
      ready: (p) => p.getByRole('table', { name: 'Audit log' }).waitFor(),
    },
    { hash: '#/events', name: 'Events', ready: (p) => p.getByRole('table', { name: 'Engine events' }).waitFor() },
  ];
}

/** Waits until nothing on the page says it is still loading. */
async function settle(page: Page): Promise<void> {
  const busy = page.locator('.mantine-Loader-root:visible, [role="progressbar"][aria-label="Loading"]:visible');
  await expect.poll(() => busy.count(), { timeout: 30_000, interval: 250 }).toBe(0);
}

/** What is wrong with the page now: axe's serious findings, console errors and warnings, failed API calls. */
async function problems(page: Page, watch: ConsoleWatch, where: string, skipRules: string[] = []): Promise<string[]> {
  const violations = (await seriousViolations(page)).filter((v) => !skipRules.includes(v.id));
  const seen = watch.take();
  return [
    ...violations.map((v) => `${where}: axe ${v.id} (${v.impact}): ${v.help} @ ${v.targets.join(' | ')}`),
    ...seen.messages.map((m) => `${where}: console ${m}`),
    ...seen.failedApi.map((m) => `${where}: API ${m}`),
  ];
}

/** The page's console and API answers were clean and axe found nothing serious. */
async function expectCleanAndAccessible(
  page: Page,
  watch: ConsoleWatch,
  where: string,
  skipRules: string[] = [],
): Promise<void> {
  expect(await problems(page, watch, where, skipRules)).toEqual([]);
}

/** The control is on screen as laid out, without scrolling the page or its table sideways. */
async function expectOnScreen(page: Page, locator: ReturnType<Page['locator']>, where: string): Promise<void> {
  const box = await locator.boundingBox();
  const width = page.viewportSize()!.width;
  expect(box, where).not.toBeNull();
  expect(box!.x, where).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width, where).toBeLessThanOrEqual(width);
}

describe('every screen at a desktop and a phone size', () => {
  let server: TestServer;
  let browser: Browser;
  let catalogueServer: http.Server;
  let ids: Ids;

  beforeAll(async () => {
    const { image } = testEngine();
    catalogueServer = http.createServer((req, res) => {
      const base = `http://127.0.0.1:${(catalogueServer.address() as { port: number }).port}`;
      if (req.url === '/catalogue.json') {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify(catalogue(base)));
      } else {
        if (req.url === '/logo.png') logoRequests++;
        res.writeHead(404).end();
      }
    });
    await new Promise<void>((resolve) => catalogueServer.listen(0, '127.0.0.1', resolve));

    // A busy app (a fifth of a core, so its CPU is never really 0 %), two tags of one image, a volume, a network.
    dockerCli([
      'run',
      '-d',
      '--name',
      APP,
      '--label',
      'berth.test=1',
      '--cpus',
      '0.2',
      image,
      'sh',
      '-c',
      'while :; do :; done',
    ]);
    dockerCli(['tag', image, TAG_A]);
    dockerCli(['tag', image, TAG_B]);
    dockerCli(['volume', 'create', '--label', 'berth.test=1', VOLUME]);
    dockerCli(['network', 'create', '--label', 'berth.test=1', NETWORK]);

    server = await startServer({
      env: { ADMIN_EMAIL: EMAIL, ADMIN_PASSWORD: PASSWORD, TEMPLATE_FETCH_ALLOW_LOOPBACK: 'true' },
    });
    // A project is a folder under COMPOSE_DIR (DATA_DIR/compose by default); it need not be up.
    const projectDir = path.join(server.dataDir, 'compose', PROJECT);
    fs.mkdirSync(projectDir, { recursive: true });
    fs.writeFileSync(
      path.join(projectDir, 'compose.yaml'),
      `services:\n  web:\n    image: ${image}\n    command: ["sleep", "3600"]\n    labels:\n      berth.test: "1"\n`,
    );
    browser = await launchBrowser();

    // The catalogue goes in through the API, as the signed-in browser would add it.
    const { context, page } = await newPage(browser, server.baseUrl);
    // The first load after the server starts can be slow on a busy machine: wait for it generously once.
    await page.goto('/');
    await page.getByLabel('Email').waitFor({ timeout: 120_000 });
    await signIn(page, EMAIL, PASSWORD);
    const csrf = (await context.cookies()).find((c) => c.name === 'csrf_access_token')?.value ?? '';
    const url = `http://127.0.0.1:${(catalogueServer.address() as { port: number }).port}/catalogue.json`;
    const created = await page.request.post('/api/templates/', {
      data: { title: 'UX Catalogue', url },
      headers: { 'X-CSRF-TOKEN': csrf },
    });
    expect(created.status(), await created.text()).toBe(200);
    const templateId = ((await created.json()) as { id: number }).id;
    const detail = (await (await page.request.get(`/api/templates/${templateId}`)).json()) as {
      items: { id: number }[];
    };
    ids = {
      image: dockerCli(['image', 'inspect', '--format', '{{.Id}}', TAG_A]).trim(),
      templateId,
      itemId: detail.items[0]!.id,
    };
    await context.close();
  }, SLOW);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await new Promise((resolve) => catalogueServer?.close(resolve));
    tryDockerCli(['rm', '-f', APP]);
    tryDockerCli(['rmi', TAG_A]);
    tryDockerCli(['rmi', TAG_B]);
    tryDockerCli(['volume', 'rm', VOLUME]);
    tryDockerCli(['network', 'rm', NETWORK]);
  });

  const open: BrowserContext[] = [];
  async function openPage(
    size: { width: number; height: number },
    theme: 'dark' | 'light' = 'dark',
  ): Promise<{ context: BrowserContext; page: Page; watch: ConsoleWatch }> {
    const { context, page } = await newPage(browser, server.baseUrl, size);
    // The theme switch's own storage key, set before the app reads it.
    await context.addInitScript((dark) => localStorage.setItem('dark_theme', dark), String(theme === 'dark'));
    open.push(context);
    return { context, page, watch: new ConsoleWatch(page) };
  }
  // A failed test still closes its pages, so their live streams do not load the next one.
  afterEach(async () => {
    for (const c of open.splice(0)) await c.close().catch(() => undefined);
  });

  for (const [label, size, theme] of [
    ['1440×900 dark', DESKTOP, 'dark'],
    ['390×844 dark', PHONE, 'dark'],
    ['1440×900 light', DESKTOP, 'light'],
    ['390×844 light', PHONE, 'light'],
  ] as const) {
    it(
      `starts signed out with the login form alone, no 401 and nothing in the console, at ${label}`,
      async () => {
        const { context, page, watch } = await openPage(size, theme);
        await page.goto('/#/apps');
        await page.getByRole('button', { name: 'Login' }).waitFor();
        await expectCleanAndAccessible(page, watch, `login ${label}`);
        await context.close();
      },
      SLOW,
    );

    it(
      `visits every screen at ${label} with a clean console and no serious accessibility violation`,
      async () => {
        const { context, page, watch } = await openPage(size, theme);
        await signIn(page, EMAIL, PASSWORD);
        // Every page is judged, then all findings are reported together.
        const found: string[] = [];
        for (const p of pages(ids)) {
          await page.goto(`/${p.hash}`);
          await expectRouteName(page, p.name);
          await p.ready?.(page);
          await settle(page);
          found.push(...(await problems(page, watch, `${p.hash} ${label}`)));
          if (size === PHONE) {
            // Nothing pushes the page sideways on a phone.
            const overflow = await page.evaluate(() => document.scrollingElement!.scrollWidth - window.innerWidth);
            if (overflow > 0) found.push(`${p.hash}: page ${overflow}px wider than the phone`);
          }
        }
        expect(found).toEqual([]);
        await context.close();
      },
      SLOW,
    );
  }

  it(
    'shows every row menu of Apps, Projects and Images on a phone without sideways scrolling',
    async () => {
      const { context, page, watch } = await openPage(PHONE);
      await signIn(page, EMAIL, PASSWORD);
      for (const [hash, name, rowText] of [
        ['#/apps', 'View Applications', APP],
        ['#/projects', 'View Projects', PROJECT],
        ['#/resources/images', 'Images', TAG_A],
      ] as const) {
        await page.goto(`/${hash}`);
        await expectRouteName(page, name);
        await page.getByRole('textbox', { name: 'Search' }).fill(rowText);
        const row = page
          .getByRole('row')
          .filter({ has: page.getByRole('button', { name: /^Actions for / }) })
          .first();
        await row.waitFor();
        const menu = row.getByRole('button', { name: /^Actions for / });
        await expectOnScreen(page, menu, `${hash} row menu`);
        await menu.click();
        await page.getByRole('menu').waitFor();
        await page.keyboard.press('Escape');
      }
      // The Unused chip and the Theme colour names are shown whole; Server Info wraps only between words.
      await page.goto('/#/resources/images');
      await page.getByRole('row').nth(1).waitFor();
      const clipped = (sel: string) =>
        page
          .locator(sel)
          .evaluateAll((els) => els.filter((e) => e.scrollWidth > e.clientWidth + 1).map((e) => e.textContent));
      expect(await clipped('.mantine-Badge-label')).toEqual([]);
      await page.goto('/#/settings/theme');
      await expectRouteName(page, 'Theme');
      expect(await clipped('.mantine-SegmentedControl-label')).toEqual([]);
      for (const radio of await page.locator('.mantine-SegmentedControl-label').all())
        await expectOnScreen(page, radio, 'theme colour name');
      await page.goto('/#/settings/info');
      const values = page.getByRole('table', { name: 'Server info' }).locator('td p, td div');
      await values.first().waitFor();
      expect(
        await values.evaluateAll((els) => els.filter((e) => getComputedStyle(e).wordBreak === 'break-all').length),
      ).toBe(0);
      await expectCleanAndAccessible(page, watch, 'phone checks');
      await context.close();
    },
    SLOW,
  );

  it(
    'lists every tag of an image: "+N" chip, search by any tag, details with untag, delete lists the tags',
    async () => {
      const { context, page, watch } = await openPage(DESKTOP);
      await signIn(page, EMAIL, PASSWORD);
      await page.goto('/#/resources/images');
      await expectRouteName(page, 'Images');
      // Whichever tag the engine lists first, the row shows one and counts the others.
      await page.getByRole('textbox', { name: 'Search' }).fill(TAG_B);
      const row = page.getByRole('row').filter({ hasText: /\+\d+/ }).first();
      await row.waitFor();
      expect(await page.getByRole('row').count()).toBe(2);

      await row.getByRole('button', { name: /^Actions for / }).click();
      await page.getByRole('menuitem', { name: 'Delete' }).click();
      const dialog = page.getByRole('dialog');
      const listed = await dialog.getByTestId('delete-image-tags').getByRole('listitem').allTextContents();
      expect(listed).toEqual(expect.arrayContaining([TAG_A, TAG_B]));
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await dialog.waitFor({ state: 'hidden' });

      await row.click();
      await expectRouteName(page, 'Image Details');
      await page.getByText(TAG_A, { exact: true }).waitFor();
      await page.getByRole('button', { name: `Remove tag ${TAG_B}` }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Remove tag' }).click();
      await page.getByText(TAG_B, { exact: true }).waitFor({ state: 'detached' });
      await page.getByText(TAG_A, { exact: true }).waitFor();
      await expect.poll(() => tryDockerCli(['image', 'inspect', TAG_B]).status).not.toBe(0);
      expect(tryDockerCli(['image', 'inspect', TAG_A]).status).toBe(0);
      // Console and API only here: axe runs in the every-screen journey.
      expect(watch.take()).toEqual({ messages: [], failedApi: [] });
      await context.close();
    },
    SLOW,
  );

  it(
    'never shows "no apps" or an unmeasured 0 % on the dashboard while an app runs',
    async () => {
      const { context, page, watch } = await openPage(DESKTOP);
      // Records every text the dashboard shows from the first paint on.
      await page.addInitScript(() => {
        const seen = new Set<string>();
        (window as unknown as { __seen: Set<string> }).__seen = seen;
        new MutationObserver(() => {
          if (document.body?.innerText.includes('No running applications yet.')) seen.add('empty');
          for (const el of Array.from(document.querySelectorAll('[data-testid="app-card"]'))) {
            const cpu = el.querySelector('[data-testid="cpu-percent"]')?.textContent ?? '';
            seen.add(`${el.querySelector('a')?.textContent ?? ''}=${cpu}`);
          }
        }).observe(document, { subtree: true, childList: true, characterData: true });
      });
      await signIn(page, EMAIL, PASSWORD);
      await expectRouteName(page, 'Dashboard');
      const card = page.locator('[data-testid="app-card"][data-measured="true"]').filter({ hasText: APP });
      await card.waitFor({ timeout: 30_000 });
      // The observer watches the card through a few more seconds of samples (one a second); a steady reading does not change the text, so time, not distinct texts, is what is waited for.
      await page.waitForTimeout(5_000);
      const seen = await page.evaluate(() => [...(window as unknown as { __seen: Set<string> }).__seen]);
      expect(seen).not.toContain('empty');
      expect(seen.filter((s) => s.startsWith(`${APP}=0%`))).toEqual([]);
      await expectCleanAndAccessible(page, watch, 'dashboard');
      await context.close();
    },
    SLOW,
  );

  it(
    'never requests an http:// template logo and shows the fallback icon in the card and the dialog',
    async () => {
      const { context, page, watch } = await openPage(DESKTOP);
      await signIn(page, EMAIL, PASSWORD);
      await page.goto(`/#/templates/${ids.templateId}`);
      await expectRouteName(page, 'Template Details');
      const card = page.getByRole('group', { name: 'Plain Logo App' });
      await card.getByRole('img', { name: 'No logo' }).waitFor();
      await card.getByRole('button', { name: 'View' }).click();
      await page.getByRole('dialog').getByRole('img', { name: 'No logo' }).waitFor();
      expect(await page.locator('img[src^="http:"]').count()).toBe(0);
      expect(logoRequests).toBe(0);
      // Judged once the dialog's and its overlay's fade-in has finished (mid-fade, text behind reads as low contrast).
      await page.evaluate(() =>
        Promise.all(
          document
            .getAnimations()
            .filter((a) => a.effect?.getTiming().iterations !== Infinity)
            .map((a) => a.finished.catch(() => undefined)),
        ),
      );
      await expectCleanAndAccessible(page, watch, 'template logos');
      await context.close();
    },
    SLOW,
  );

  it(
    'removes an app from its page without asking for the removed app again',
    async () => {
      const name = `${PREFIX}-gone`;
      dockerCli([
        'run',
        '-d',
        '--name',
        name,
        '--label',
        'berth.test=1',
        testEngine().image,
        'sh',
        '-c',
        'while true; do echo tick; sleep 0.5; done',
      ]);
      try {
        const { context, page, watch } = await openPage(DESKTOP);
        await signIn(page, EMAIL, PASSWORD);
        await page.goto(`/#/apps/${name}/stats`);
        await expectRouteName(page, 'Stats');
        await page.getByTestId('cpu-numbers').waitFor({ timeout: 30_000 });
        watch.take();
        await page.getByRole('button', { name: 'Remove', exact: true }).click();
        await page.getByRole('dialog').getByRole('button', { name: 'Remove' }).click();
        await expectRouteName(page, 'View Applications');
        // Judged once the dialog and its fading overlay are gone (under it every text reads as low contrast).
        await page.getByRole('dialog').waitFor({ state: 'detached' });
        await page.locator('.mantine-Modal-overlay').waitFor({ state: 'detached' });
        await page.getByRole('row').filter({ hasText: APP }).first().waitFor();
        await settle(page);
        // Colour contrast of this list is judged by the every-screen journeys; read right after the
        // dialog's exit transition it came out low on the shell's text in some runs (not reproduced
        // on a still page), so this journey judges the rest: names, roles, console and API calls.
        await expectCleanAndAccessible(page, watch, 'after removing an app', ['color-contrast']);
        await context.close();
      } finally {
        tryDockerCli(['rm', '-f', name]);
      }
    },
    SLOW,
  );
});
