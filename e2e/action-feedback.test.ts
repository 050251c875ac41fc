import fs from 'node:fs';
import path from 'node:path';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { trackedProjects, twoServiceYaml } from '../server/test/helpers/compose-projects';
import { dockerCli, removeContainersNamed, testEngine, tryDockerCli } from '../server/test/helpers/engine';
import { newPage, routeName, signIn } from './helpers/browser';
import { withConsole, type ConsoleRun } from './helpers/console';
import { button, choose, field, fillAndLeave, openFresh } from './helpers/form';

/** Forms and compose actions on a busy two-core machine take a while. */
const SLOW = 240_000;
const EMAIL = 'admin@berth.local';
const PREFIX = `berth-t-polish-${Math.random().toString(36).slice(2, 8)}`;
let seq = 0;
const uniqueName = (what: string) => `${PREFIX}-${what}-${++seq}`;

/** A labelled busybox app that stops at once on SIGTERM (so replacing or stopping it is quick). */
function startApp(name: string, extra: string[] = []): void {
  dockerCli([
    'run',
    '-d',
    '--name',
    name,
    '--label',
    'berth.test=1',
    ...extra,
    testEngine().image,
    'sh',
    '-c',
    'trap "exit 0" TERM; while true; do sleep 1; done',
  ]);
}

/**
 * The page with this route name is shown. A reload on the loaded test machine can take long (the
 * project page's chunk is large), so the wait is generous; nothing here is timed.
 */
const expectRouteName = (page: Page, name: string) =>
  routeName(page)
    .filter({ hasText: new RegExp(`^${name}$`) })
    .waitFor({ timeout: 90_000 });

const notification = (page: Page, text: string | RegExp) =>
  page.locator('.mantine-Notification-root').filter({ hasText: text });

/** Whether two boxes overlap. */
const overlaps = (a: DOMRect, b: DOMRect) =>
  a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

async function box(locator: Locator): Promise<DOMRect> {
  return locator.evaluate((el) => el.getBoundingClientRect().toJSON() as DOMRect);
}

describe('what the user is told after an action, and how lists and forms read', () => {
  let run: ConsoleRun;
  withConsole((r) => (run = r));
  let context: BrowserContext;
  let page: Page;
  const volumes: string[] = [];
  const projects = trackedProjects();

  beforeAll(async () => {
    ({ context, page } = await newPage(run.browser, run.server.baseUrl, { width: 1440, height: 900 }));
    await signIn(page, EMAIL, run.password);
  });
  afterEach(() => projects.cleanup());
  afterAll(async () => {
    await context?.close();
    removeContainersNamed(PREFIX);
    if (volumes.length) tryDockerCli(['volume', 'rm', '-f', ...volumes]);
  });

  it(
    'shows a failed deploy inline at the top of step 1, off the buttons, closable, and gone after leaving the page',
    async () => {
      const taken = uniqueName('taken');
      startApp(taken);
      await openFresh(page, '/#/apps/deploy');
      await expectRouteName(page, 'Add Application');
      await fillAndLeave(page, 'Name', taken);
      await fillAndLeave(page, 'Image', testEngine().image);
      await choose(page, 'Restart Policy', 'none');

      // Host networking hides the Ports and says why.
      await button(page, 'Continue').click();
      await choose(page, 'Network Mode', 'host');
      await page.getByText(/^Ports are hidden: with host networking/).waitFor();
      expect(await page.getByRole('group', { name: 'Ports' }).count()).toBe(0);

      const form = page.getByRole('form', { name: 'Deploy' });
      const failure = form.locator('.mantine-Notification-root').filter({ hasText: 'already in use' });
      const deployAndFail = async () => {
        await page
          .getByRole('main')
          .getByRole('button', { name: /Environment/ })
          .click();
        await button(page, 'Deploy').click();
        await failure.waitFor({ timeout: 30_000 });
      };
      await deployAndFail();
      // Spec: the error is '{statusText}: {detail}' with a Close button, and the form is back on step 1.
      expect(await failure.innerText()).toMatch(/^Conflict: The name "[^"]+" is already in use/m);
      await field(page, 'Name').waitFor();
      // Above the step's fields, covering none of the form's controls.
      expect((await box(failure)).bottom).toBeLessThanOrEqual((await box(field(page, 'Name'))).top);
      const where = await box(failure);
      const controls = form.locator('button:not(.mantine-Notification-root button), input');
      for (const control of await controls.all()) {
        if (await control.isVisible()) expect(overlaps(where, await box(control))).toBe(false);
      }
      await failure.getByRole('button', { name: 'Close' }).click();
      await failure.waitFor({ state: 'detached' });

      await deployAndFail();
      await page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'Applications', exact: true })
        .click();
      await expectRouteName(page, 'View Applications');
      expect(await notification(page, 'already in use').count()).toBe(0);
    },
    SLOW,
  );

  it(
    'closes an error notification of one page when the user goes to another',
    async () => {
      const volume = uniqueName('busy');
      volumes.push(volume);
      dockerCli(['volume', 'create', '--label', 'berth.test=1', volume]);
      startApp(uniqueName('holder'), ['-v', `${volume}:/data`]);
      await openFresh(page, '/#/resources/volumes');
      await expectRouteName(page, 'Volumes');
      await page.getByRole('textbox', { name: 'Search' }).fill(volume);
      await page.getByRole('button', { name: `Actions for ${volume}` }).click();
      await page.getByRole('menuitem', { name: 'Delete' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
      // 409 from the engine: the volume is used by the holder app.
      const error = notification(page, /^Conflict: /);
      await error.waitFor({ timeout: 20_000 });
      await page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'Applications', exact: true })
        .click();
      await expectRouteName(page, 'View Applications');
      await error.waitFor({ state: 'detached', timeout: 5_000 });
    },
    SLOW,
  );

  it(
    'sorts Volumes by name by default',
    async () => {
      const [b, a] = [`${PREFIX}-vol-b`, `${PREFIX}-vol-a`];
      volumes.push(b, a);
      // Made in reverse order, so creation order does not look sorted by chance. Each visit reloads the
      // page: the volumes list has no live updates, and an earlier test's cached list would hide these.
      for (const v of [b, a]) dockerCli(['volume', 'create', '--label', 'berth.test=1', v]);
      await openFresh(page, '/#/resources/volumes');
      await expectRouteName(page, 'Volumes');
      await page.getByRole('textbox', { name: 'Search' }).fill(`${PREFIX}-vol-`);
      const table = page.getByRole('table', { name: 'Volumes' });
      await table.getByRole('row').filter({ hasText: a }).waitFor();
      await table.getByRole('row').filter({ hasText: b }).waitFor();
      expect(await page.getByRole('button', { name: 'Sort by Name' }).locator('.tabler-icon-chevron-up').count()).toBe(
        1,
      );
      const names = (await table.getByRole('row').allTextContents()).filter((t) => t.includes(`${PREFIX}-vol-`));
      expect(names.map((t) => (t.includes(a) ? 'a' : 'b'))).toEqual(['a', 'b']);
    },
    SLOW,
  );

  it(
    'starts the Apps list with its toolbar, and says when an app action has succeeded',
    async () => {
      const name = uniqueName('app');
      startApp(name);
      await openFresh(page, '/#/apps');
      await expectRouteName(page, 'View Applications');
      await page
        .getByRole('table', { name: 'Applications' })
        .getByRole('row')
        .filter({ hasText: name })
        .waitFor({ timeout: 20_000 });
      // No reserved empty line between the top of the page and the toolbar.
      const gap = await page.getByRole('textbox', { name: 'Search' }).evaluate((input) => {
        const main = document.querySelector('main')!;
        const pad = parseFloat(getComputedStyle(main).paddingTop);
        return input.getBoundingClientRect().top - (main.getBoundingClientRect().top + pad);
      });
      expect(gap).toBeLessThan(8);

      await page
        .getByRole('row')
        .filter({ hasText: name })
        .getByRole('button', { name: `Actions for ${name}` })
        .click();
      await page.getByRole('menuitem', { name: 'Restart' }).click();
      await notification(page, `OK: ${name} has been restarted.`).waitFor({ timeout: 30_000 });
    },
    SLOW,
  );

  it(
    'shows the image of an app on one line, whole in its title',
    async () => {
      const name = uniqueName('img');
      startApp(name);
      const { image } = testEngine();
      await openFresh(page, `/#/apps/${name}/info`);
      await expectRouteName(page, 'Info');
      const shown = page.getByTitle(image, { exact: true });
      await shown.waitFor();
      expect(await shown.textContent()).toBe(image);
      const lines = await shown.evaluate(
        (el) => el.getBoundingClientRect().height / parseFloat(getComputedStyle(el).lineHeight),
      );
      expect(lines).toBeLessThan(1.5);
    },
    SLOW,
  );

  it(
    'keeps the engine-chosen host port of an app when it is edited',
    async () => {
      const name = uniqueName('port');
      startApp(name, ['-p', '80']);
      const portOf = () => {
        const ports = JSON.parse(dockerCli(['inspect', '--format', '{{json .NetworkSettings.Ports}}', name])) as Record<
          string,
          { HostPort: string }[] | null
        >;
        return ports['80/tcp']?.[0]?.HostPort;
      };
      const idOf = () => dockerCli(['inspect', '--format', '{{.Id}}', name]).trim();
      const before = { port: portOf(), id: idOf() };
      expect(before.port).toMatch(/^\d+$/);

      await openFresh(page, `/#/apps/edit/${name}`);
      await expectRouteName(page, 'Edit');
      await button(page, 'Continue').click();
      expect(await field(page, 'Host port 1').inputValue()).toBe('');
      await page
        .getByRole('main')
        .getByRole('button', { name: /Environment/ })
        .click();
      await button(page, 'Deploy').click();
      await page.getByRole('dialog').getByRole('button', { name: 'Deploy' }).click();
      await expectRouteName(page, 'Info');
      expect(idOf()).not.toBe(before.id);
      expect(portOf()).toBe(before.port);
    },
    SLOW,
  );

  it(
    'asks before killing or removing a service, offers what its state allows, and dates and dismisses the action output',
    async () => {
      const project = projects.name('polish');
      const dir = path.join(run.server.dataDir, 'compose', project);
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, 'compose.yaml'), twoServiceYaml());
      await openFresh(page, `/#/projects/${project}`);
      await expectRouteName(page, 'Project Details');
      const status = page.getByTestId('status-web');
      await status.filter({ hasText: /^not created$/ }).waitFor({ timeout: 20_000 });
      await page.getByRole('button', { name: 'Service web' }).click();
      const svc = (label: string) => button(page, `${label} web`);
      for (const label of ['Start', 'Stop', 'Restart', 'Kill', 'Remove'])
        expect(await svc(label).isDisabled(), label).toBe(true);
      expect(await svc('Up').isEnabled()).toBe(true);

      await svc('Up').click();
      await status.filter({ hasText: /^running$/ }).waitFor({ timeout: 60_000 });
      await expect.poll(() => svc('Stop').isEnabled()).toBe(true);
      expect(await svc('Start').isDisabled()).toBe(true);

      // The finished action's card says when it ended, and it still does after a reload.
      const card = page.locator('[aria-label="Action output"]');
      await card
        .getByTestId('action-output-time')
        .filter({ hasText: /^ended \d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/ })
        .waitFor({ timeout: 30_000 });
      await page.reload();
      await card
        .getByTestId('action-output-time')
        .filter({ hasText: /^ended / })
        .waitFor({ timeout: 20_000 });
      await card.getByRole('button', { name: 'Dismiss action output' }).click();
      await card.waitFor({ state: 'detached' });

      await page.getByRole('button', { name: 'Service web' }).click();
      await svc('Kill').click();
      const dialog = page.getByRole('dialog', { name: 'Kill web?' });
      await dialog.waitFor();
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await dialog.waitFor({ state: 'detached' });
      expect(await status.textContent()).toBe('running');

      await svc('Remove').click();
      const remove = page.getByRole('dialog', { name: 'Remove web?' });
      await remove.getByText('All non-persistent data will be removed').waitFor();
      await remove.getByRole('button', { name: 'Remove' }).click();
      await notification(page, 'web has been removed.').waitFor({ timeout: 60_000 });
      await status.filter({ hasText: /^not created$/ }).waitFor({ timeout: 30_000 });
      await expect.poll(() => svc('Stop').isDisabled()).toBe(true);
    },
    SLOW,
  );
});
