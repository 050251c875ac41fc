import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEngine, tryDockerCli } from '../server/test/helpers/engine';
import { cleanupProject, projectContainers } from '../server/test/helpers/compose-projects';
import { TestRepo } from '../server/test/helpers/git-repos';
import { expectRouteName, launchBrowser, newPage, signIn } from './helpers/browser';
import { field } from './helpers/form';
import { startServer, type TestServer } from './helpers/server';

const EMAIL = 'admin@berth.local';
const PASSWORD = 'berth-e2e-git-password';
const name = `berth-t-e2e-git-${Math.random().toString(36).slice(2, 8)}`;
const V2 = 'berth-test-git/busybox:v2';
const composeFile = (image: string) =>
  `services:\n  web:\n    image: ${image}\n    command: ["sleep", "3600"]\n    stop_signal: SIGKILL\n`;

describe('a project from git', () => {
  let server: TestServer;
  let browser: Browser;
  let repo: TestRepo;

  beforeAll(async () => {
    tryDockerCli(['tag', testEngine().image, V2]);
    repo = new TestRepo('e2e');
    repo.commit({ 'compose.yaml': composeFile(testEngine().image) }, 'first');
    server = await startServer({ env: { ADMIN_PASSWORD: PASSWORD } });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    cleanupProject(name);
    repo?.remove();
    await browser?.close();
    await server?.stop();
  });

  it('is created from git, deployed, a pushed change deployed with one click, then rolled back from the Revisions tab', async () => {
    const { context, page } = await newPage(browser, server.baseUrl);
    await signIn(page, EMAIL, PASSWORD);
    await page.goto('/#/projects');
    await page.getByRole('link', { name: 'From git' }).click();
    await expectRouteName(page, 'New project from git');
    await field(page, 'Project name').fill(name);
    await field(page, 'Repository URL').fill(repo.url('daemon'));
    await page.getByRole('button', { name: 'Create from git' }).click();
    await page.getByRole('link', { name: `Open ${name}` }).click();
    await expectRouteName(page, 'Project Details');

    const card = page.getByTestId('git-status');
    await card.getByRole('button', { name: 'Deploy' }).click();
    await expect.poll(() => projectContainers(name).map((c) => c.state), { timeout: 60_000 }).toEqual(['running']);
    await expect.poll(() => card.getByTestId('git-deployed').textContent(), { timeout: 60_000 }).not.toBe('—');

    repo.commit({ 'compose.yaml': composeFile(V2) }, 'image v2');
    await page.reload();
    await expect.poll(() => card.textContent(), { timeout: 30_000 }).toContain('behind by 1');
    await card.getByRole('button', { name: 'Deploy' }).click();
    await expect.poll(() => card.textContent(), { timeout: 60_000 }).toContain('up to date');
    const image = () =>
      tryDockerCli(['inspect', '-f', '{{.Config.Image}}', projectContainers(name)[0]?.name ?? 'none']).stdout.trim();
    await expect.poll(image, { timeout: 60_000 }).toBe(V2);

    // Revisions tab: the two git deploys, their diff, then Roll back (the plan confirmed first) to the first one's digest.
    await page.getByRole('tab', { name: 'Revisions' }).click();
    const rows = page.getByRole('table', { name: 'Revisions' }).locator('tbody tr');
    await rows.nth(1).waitFor();
    expect(await rows.count()).toBe(2);
    await rows.first().getByRole('button', { name: 'Diff' }).click();
    const diff = page.getByRole('table', { name: 'Compose file diff' });
    await diff.locator('tr[data-kind="changed"]').filter({ hasText: testEngine().image }).waitFor();
    expect(await diff.locator('tr[data-kind="changed"]').innerText()).toContain(V2);
    await rows.nth(1).getByRole('button', { name: 'Roll back' }).click();
    const dialog = page.getByRole('dialog', { name: `Roll ${name} back to revision 1?` });
    await dialog.getByText('Recreated (their containers are replaced)').waitFor();
    await dialog.getByRole('button', { name: 'Roll back' }).click();
    await page.getByText(`${name} has been rolled back to revision 1.`).waitFor({ timeout: 60_000 });
    // Pinned to the digest revision 1 ran (the registry image's), not the tag.
    const repository = testEngine().image.replace(/:[^:/]+$/, '');
    await expect.poll(image, { timeout: 60_000 }).toMatch(new RegExp(`^${repository.replace(/[.]/g, '\\.')}@sha256:`));
    await context.close();
  });
});
