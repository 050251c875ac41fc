import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dockerCli, requireHarnessEngine, testEngine } from '../server/test/helpers/engine';
import { cleanup, uniqueName } from '../server/test/images-fixtures';
import { gitHarness, TestRepo } from '../server/test/helpers/git-repos';
import { expectRouteName, launchBrowser, newPage, signIn } from './helpers/browser';
import { choose, openFresh } from './helpers/form';
import { startServer, type TestServer } from './helpers/server';
import { adminPost } from './helpers/users';

const EMAIL = 'admin@berth.local';
const PASSWORD = 'berth-e2e-build-password';

describe('building an image', () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  const tag = `${uniqueName('e2e-build')}:v1`;
  const second = `${tag.split(':')[0]}-copy`;
  const fromGit = `${uniqueName('e2e-build-git')}:v1`;
  const fromTar = `${uniqueName('e2e-build-tar')}:v1`;
  let repo: TestRepo | null = null;

  beforeAll(async () => {
    requireHarnessEngine();
    server = await startServer({ env: { ADMIN_PASSWORD: PASSWORD } });
    browser = await launchBrowser();
    ({ page } = await newPage(browser, server.baseUrl));
    await signIn(page, EMAIL, PASSWORD);
  });
  afterAll(async () => {
    cleanup('image', tag, `${second}:latest`, fromGit, fromTar);
    repo?.remove();
    await browser?.close();
    await server?.stop();
  });

  it('builds a typed Dockerfile with its output shown live, then tags the image on its page', async () => {
    await page.goto('/#/resources/images');
    await expectRouteName(page, 'Images');
    await page.getByRole('button', { name: 'Build', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Build Image' });
    const editor = dialog.getByRole('textbox', { name: 'Dockerfile' });
    await editor.click();
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Delete');
    await editor.pressSequentially(`FROM ${testEngine().image}\nRUN echo built-in-the-browser\n`);
    await dialog.getByLabel('Tags').fill(tag);
    await dialog.getByRole('button', { name: 'Build', exact: true }).click();
    await dialog.getByRole('status').getByText(`as ${tag}`).waitFor({ timeout: 60_000 });
    const output = await dialog.getByLabel('Build output').textContent();
    expect(output).toMatch(/Step 1\/2 : FROM/);
    expect(output).toContain('built-in-the-browser');
    expect(dockerCli(['image', 'inspect', '--format', '{{.Id}}', tag]).trim()).toMatch(/^sha256:/);
    await dialog.getByRole('button', { name: 'Close' }).click();

    const id = dockerCli(['image', 'inspect', '--format', '{{.Id}}', tag]).trim();
    await page.goto(`/#/resources/images/${encodeURIComponent(id)}`);
    await page.getByRole('button', { name: 'Actions', exact: true }).click();
    const exportLink = page.getByRole('menuitem', { name: 'Export Image' });
    expect(await exportLink.getAttribute('href')).toMatch(/\/api\/resources\/images\/sha256%3A[0-9a-f]+\/export$/);
    await page.getByRole('menuitem', { name: 'Tag Image' }).click();
    const tagDialog = page.getByRole('dialog', { name: 'Tag Image' });
    await tagDialog.getByLabel('Repository').fill(second);
    await tagDialog.getByRole('button', { name: 'Tag', exact: true }).click();
    await tagDialog.waitFor({ state: 'hidden' });
    expect(dockerCli(['image', 'inspect', '--format', '{{.Id}}', `${second}:latest`]).trim()).toBe(id);
  });

  it('loads a saved archive with the bytes uploaded shown', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'berth-e2e-load-'));
    const tar = path.join(dir, 'images.tar');
    try {
      dockerCli(['save', '-o', tar, `${second}:latest`], { timeoutMs: 120_000 });
      cleanup('image', `${second}:latest`);
      await page.goto('/#/resources/images');
      await page.getByRole('button', { name: 'Load', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: 'Load Images' });
      await dialog.locator('input[type=file]').setInputFiles(tar);
      await dialog.getByRole('button', { name: 'Load', exact: true }).click();
      await dialog.getByRole('status').getByText(`Loaded ${second}:latest`).waitFor({ timeout: 60_000 });
      // Every byte of the archive went up, counted by the browser as it was sent.
      expect(await dialog.getByTestId('upload-progress').textContent()).toMatch(/^Uploaded (.+) of \1$/);
      expect(dockerCli(['image', 'inspect', '--format', '{{.Id}}', `${second}:latest`]).trim()).toMatch(/^sha256:/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('builds from a private git repository with a stored credential, and an uploaded context with its upload counted', async () => {
    const h = gitHarness();
    repo = new TestRepo('e2e-build');
    repo.commit({ 'docker/Dockerfile': `FROM ${testEngine().image}\nRUN echo from-private-git > /src\n` });
    const post = await adminPost(server.baseUrl, { email: EMAIL, password: PASSWORD });
    const cred = await post('/api/git/credentials', {
      kind: 'https',
      name: 'e2e build',
      username: h.httpUser,
      token: h.httpToken,
    });
    expect(cred.status).toBe(200);
    await openFresh(page, '/#/resources/images');
    await page.getByRole('button', { name: 'Build', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Build Image' });
    await dialog.getByRole('tab', { name: 'From git' }).click();
    await dialog.getByLabel('Repository URL').fill(repo.url('http'));
    await dialog.getByLabel('Folder').fill('docker');
    await choose(page, 'Credential', 'e2e build (https)');
    await dialog.getByLabel('Tags').fill(fromGit);
    await dialog.getByRole('button', { name: 'Build', exact: true }).click();
    await dialog.getByRole('status').getByText(`as ${fromGit}`).waitFor({ timeout: 120_000 });
    expect(await dialog.getByLabel('Build output').textContent()).toMatch(/Checked out [0-9a-f]{12}, building docker/);
    expect(dockerCli(['run', '--rm', fromGit, 'cat', '/src']).trim()).toBe('from-private-git');

    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'berth-e2e-ctx-'));
    try {
      fs.writeFileSync(path.join(dir, 'Dockerfile'), `FROM ${testEngine().image}\nCOPY big.bin /big.bin\n`);
      fs.writeFileSync(path.join(dir, 'big.bin'), Buffer.alloc(4 * 1024 * 1024, 7));
      const tar = path.join(dir, 'ctx.tar');
      expect(spawnSync('tar', ['-cf', tar, '-C', dir, 'Dockerfile', 'big.bin']).status).toBe(0);
      await dialog.getByRole('tab', { name: 'Dockerfile' }).click();
      const editor = dialog.getByRole('textbox', { name: 'Dockerfile' });
      await editor.click();
      await page.keyboard.press('Control+A');
      await page.keyboard.press('Delete');
      await dialog.locator('input[type=file]').setInputFiles(tar);
      await dialog.getByLabel('Tags').fill(fromTar);
      await dialog.getByRole('button', { name: 'Build', exact: true }).click();
      await dialog.getByRole('status').getByText(`as ${fromTar}`).waitFor({ timeout: 120_000 });
      // Every byte of the context went up, counted by the browser as it was sent.
      expect(await dialog.getByTestId('upload-progress').textContent()).toMatch(/^Uploaded (.+) of \1$/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
