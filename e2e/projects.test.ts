import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { projectContainers, trackedProjects, twoServiceYaml } from '../server/test/helpers/compose-projects';
import { testEngine } from '../server/test/helpers/engine';
import { expectRouteName, launchBrowser, newPage, signIn } from './helpers/browser';
import { initialAdminPassword, startServer, type TestServer } from './helpers/server';
import { choose } from './helpers/form';

const EMAIL = 'admin@berth.local';

/** Replaces the editor's whole text as if pasted (typing would trigger auto-indent). */
async function setEditorText(page: Page, text: string): Promise<void> {
  const content = page.getByTestId('compose-editor').locator('.cm-content');
  await content.click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(text);
}

const status = (page: Page, service: string) => page.getByTestId(`status-${service}`);

async function waitForStatus(page: Page, service: string, text: string): Promise<void> {
  await status(page, service)
    .filter({ hasText: new RegExp(`^${text}$`) })
    .waitFor({ timeout: 30_000 });
}

describe('compose projects in the browser', () => {
  let server: TestServer;
  let browser: Browser;
  let password: string;
  const projects = trackedProjects();

  beforeAll(async () => {
    testEngine();
    server = await startServer();
    password = initialAdminPassword(server);
    browser = await launchBrowser();
  });
  afterEach(() => projects.cleanup());
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('creates a project in the editor, brings it up, stops and starts a service, brings it down and deletes it', async () => {
    const name = projects.name('e2e');
    const { context, page } = await newPage(browser, server.baseUrl);
    await signIn(page, EMAIL, password);
    await page.goto('/#/projects');
    await expectRouteName(page, 'View Projects');
    await page.getByText('No Projects available.').waitFor();

    await page.getByRole('link', { name: 'Add' }).click();
    await expectRouteName(page, 'New project');
    expect(page.url()).toMatch(/#\/projects\/_\/edit$/);
    await page.getByRole('heading', { name: 'New project' }).first().waitFor();
    await page.getByLabel('Project name').fill(name);

    await setEditorText(page, 'services:\n  web:\n    image: x\n   broken: y\n');
    await page
      .getByTestId('yaml-error')
      .filter({ hasText: /Line 4, column \d+/ })
      .waitFor();
    expect(await page.getByRole('button', { name: 'Save', exact: true }).isDisabled()).toBe(true);

    await setEditorText(page, twoServiceYaml());
    await page.getByTestId('yaml-error').waitFor({ state: 'detached' });
    // The .env can be written with the new project (issue 39 #32).
    await page.getByLabel('.env content').fill('GREETING=hi\n');
    await page.getByRole('button', { name: 'Save', exact: true }).click();

    await expectRouteName(page, 'Project Details');
    expect(page.url()).toMatch(new RegExp(`#/projects/${name}$`));
    await page.getByRole('heading', { name }).waitFor();
    expect(fs.readFileSync(path.join(server.dataDir, 'compose', name, 'compose.yaml'), 'utf8')).toBe(twoServiceYaml());
    expect(fs.readFileSync(path.join(server.dataDir, 'compose', name, '.env'), 'utf8')).toBe('GREETING=hi\n');
    await waitForStatus(page, 'web', 'not created');
    await waitForStatus(page, 'worker', 'not created');

    await page.getByRole('button', { name: 'Actions', exact: true }).click();
    await page.getByRole('menuitem', { name: 'Up' }).click();
    await page.getByText(`${name} has been brought up.`).waitFor({ timeout: 30_000 });
    await waitForStatus(page, 'web', 'running');
    await waitForStatus(page, 'worker', 'running');
    // the CLI's output of the action is on the page
    await page.getByTestId('action-output').filter({ hasText: /web/ }).waitFor();

    // Auto-heal of one compose service (issue 36): set on web, in effect at once; worker keeps the default (off).
    await page.getByRole('heading', { name: 'Auto-heal of web' }).waitFor();
    await choose(page, 'Auto-heal', 'On');
    await page.getByLabel('Failed checks').fill('2');
    await page.getByLabel('Restarts an hour').fill('4');
    await page.getByLabel('Back-off (s)').fill('7');
    await page.getByRole('button', { name: 'Save auto-heal' }).click();
    const inEffect = page.getByTestId('auto-heal-effective');
    await inEffect
      .filter({ hasText: 'In effect: on, restart after 2 failed checks, at most 4 restarts an hour, back-off 7 s.' })
      .waitFor();
    await choose(page, 'Auto-heal of service', 'worker');
    await page.getByRole('heading', { name: 'Auto-heal of worker' }).waitFor();
    await inEffect.filter({ hasText: /^In effect: off, restart after 3 failed checks/ }).waitFor();

    await page.getByRole('button', { name: 'Service web' }).click();
    await page.getByRole('button', { name: 'Stop web', exact: true }).click();
    await page.getByText('web has been stopped.').waitFor({ timeout: 30_000 });
    await waitForStatus(page, 'web', 'exited');
    await waitForStatus(page, 'worker', 'running');
    // The projects list leads with the project's state and its running services.
    await page.goto('/#/projects');
    const listed = page.getByRole('row').filter({ hasText: name });
    await listed
      .getByRole('cell')
      .filter({ hasText: /^partial1 of 2 services running$/ })
      .waitFor();
    await listed.click();
    await page.getByRole('button', { name: 'Service web' }).click();
    await page.getByRole('button', { name: 'Start web', exact: true }).click();
    await waitForStatus(page, 'web', 'running');
    // spec: optional fields of the service are listed
    await page.getByRole('table', { name: 'Service fields' }).getByText('SECRET_TOKEN=hunter2').waitFor();

    await page.getByRole('button', { name: 'Actions', exact: true }).click();
    await page.getByRole('menuitem', { name: 'Down' }).click();
    await waitForStatus(page, 'web', 'not created');
    expect(projectContainers(name)).toEqual([]);

    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: `Delete ${name} project?` });
    await dialog
      .getByText(
        'The project directory and all files within it will be permanently deleted. This action cannot be revoked.',
      )
      .waitFor();
    await dialog
      .getByText('Its containers are stopped and removed, and its default network too; its volumes stay.')
      .waitFor();
    await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
    await expectRouteName(page, 'View Projects');
    await page.getByText('No Projects available.').waitFor();
    expect(fs.existsSync(path.join(server.dataDir, 'compose', name))).toBe(false);
    await context.close();
  });

  it('lists a project with its status, runs Controls from the row menu, and edits with the YAML error shown first', async () => {
    const name = projects.name('e2elist');
    const dir = path.join(server.dataDir, 'compose', name);
    // a project folder made by hand is discovered
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'docker-compose.yml'), twoServiceYaml());
    const { context, page } = await newPage(browser, server.baseUrl);
    await signIn(page, EMAIL, password);
    await page.goto('/#/projects');
    const table = page.getByRole('table', { name: 'Projects' });
    const row = table.getByRole('row').filter({ hasText: name });
    await row.waitFor();
    // Cells: selection box, name, status, version, services.
    expect(await row.getByRole('cell').nth(2).textContent()).toBe('not created');
    expect(await row.getByRole('cell').nth(4).textContent()).toBe('2');

    await row.getByRole('button', { name: `Actions for ${name}` }).click();
    await page.getByRole('menuitem', { name: 'Controls' }).hover();
    await page.getByRole('menuitem', { name: 'Create' }).click();
    await page.getByText(`${name} has been created.`).waitFor({ timeout: 30_000 });
    await row
      .getByRole('cell')
      .filter({ hasText: /^stopped0 of 2 services running$/ })
      .waitFor();
    expect(projectContainers(name).map((c) => c.state)).toEqual(['created', 'created']);

    await row.getByRole('button', { name: `Actions for ${name}` }).click();
    await page.getByRole('menuitem', { name: 'Edit' }).click();
    await expectRouteName(page, 'Edit Project');
    await page.getByRole('heading', { name: `Edit ${name} Project` }).waitFor();
    expect(await page.getByLabel('Project name').count()).toBe(0);
    const before = fs.readFileSync(path.join(dir, 'docker-compose.yml'));
    await setEditorText(page, 'services:\n  web: [unclosed\n');
    await page
      .getByTestId('yaml-error')
      .filter({ hasText: /Line \d+, column \d+/ })
      .waitFor();
    expect(await page.getByRole('button', { name: 'Save', exact: true }).isDisabled()).toBe(true);
    expect(fs.readFileSync(path.join(dir, 'docker-compose.yml')).equals(before)).toBe(true);

    // the editor marks where a file breaks the Compose Specification's schema before saving, and explains keys on hover
    const editor = page.getByTestId('compose-editor');
    await setEditorText(page, twoServiceYaml().replace('stop_signal: SIGKILL', 'frobnicate: 1'));
    await editor.locator('.cm-lintRange-error', { hasText: 'frobnicate' }).waitFor();
    await editor
      .locator('.cm-line span', { hasText: /^image$/ })
      .first()
      .hover();
    await page
      .locator('.cm-compose-doc')
      .filter({ hasText: /^The image to run/ })
      .waitFor();
    // … and the server refuses it, writing nothing
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: /breaks the Compose Specification at line 6, column 5 \(services\.web\.frobnicate\)/ })
      .waitFor();
    expect(fs.readFileSync(path.join(dir, 'docker-compose.yml')).equals(before)).toBe(true);

    // Save and deploy: saved, then the project page brings it up (after its plan).
    await setEditorText(page, twoServiceYaml().replace('# two services', '# edited in the browser'));
    await page.getByRole('button', { name: 'Save and deploy' }).click();
    await expectRouteName(page, 'Project Details');
    await page.getByText(`${name} has been brought up.`).waitFor({ timeout: 30_000 });
    await waitForStatus(page, 'web', 'running');
    expect(fs.readFileSync(path.join(dir, 'docker-compose.yml'), 'utf8')).toContain('# edited in the browser');

    await page.goto('/#/projects');
    await row.click();
    await expectRouteName(page, 'Project Details');
    await page
      .getByText(path.join(fs.realpathSync(path.join(server.dataDir, 'compose')), name, 'docker-compose.yml'))
      .waitFor();
    await context.close();
  });
});
