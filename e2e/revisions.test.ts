import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupProject, projectName } from '../server/test/helpers/compose-projects';
import { dockerCli, testEngine, tryDockerCli } from '../server/test/helpers/engine';
import { expectRouteName, launchBrowser, newPage, signIn } from './helpers/browser';
import { initialAdminPassword, startServer, type TestServer } from './helpers/server';

const EMAIL = 'admin@berth.local';

const yaml = (image: string) => `services:
  web:
    image: ${image}
    command: ["sleep", "3600"]
    stop_signal: SIGKILL
`;

describe('project revisions in the browser', () => {
  let server: TestServer;
  let browser: Browser;
  let password: string;
  const name = projectName('e2e-rev');
  /** Two images of the test image under two tags of one registry repository, so their digests differ. */
  const repo = {
    tagged: (tag: string) => `${testEngine().registry}/${name}/web:${tag}`,
    images: [] as string[],
    publish(tag: string): void {
      const ref = this.tagged(tag);
      const dockerfile = `FROM ${testEngine().image}\nLABEL berth.nonce="${Math.random()}"\n`;
      this.images.push(
        dockerCli(['build', '-q', '-t', ref, '--label', 'berth.test=1', '-'], {
          input: dockerfile,
          timeoutMs: 120_000,
        }).trim(),
      );
      dockerCli(['push', ref], { timeoutMs: 120_000 });
    },
  };

  /** The admin's API calls (the journey under test is the browser's). */
  async function call(method: string, path: string, body?: object): Promise<void> {
    const login = await fetch(`${server.baseUrl}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: EMAIL, password }),
    });
    const cookies = login.headers.getSetCookie().map((c) => c.split(';')[0]!);
    const csrf = cookies.find((c) => c.startsWith('csrf_access_token='))!.split('=')[1]!;
    const res = await fetch(`${server.baseUrl}${path}`, {
      method,
      headers: {
        ...(body ? { 'content-type': 'application/json' } : {}),
        cookie: cookies.join('; '),
        'x-csrf-token': csrf,
      },
      body: body ? JSON.stringify(body) : undefined,
    });
    expect(res.status, await res.clone().text()).toBe(200);
  }

  const running = () =>
    dockerCli([
      'inspect',
      '--format',
      '{{.Image}}',
      dockerCli(['ps', '-q', '--filter', `label=com.docker.compose.project=${name}`]).trim(),
    ]).trim();

  beforeAll(async () => {
    server = await startServer();
    password = initialAdminPassword(server);
    browser = await launchBrowser();
    repo.publish('v1');
    repo.publish('v2');
    await call('POST', '/api/compose/', { name, content: yaml(repo.tagged('v1')) });
    await call('POST', `/api/compose/${name}/actions/up`);
    await call('POST', `/api/compose/${name}/edit`, { name, content: yaml(repo.tagged('v2')) });
    await call('POST', `/api/compose/${name}/actions/up`);
  }, 180_000);
  afterAll(async () => {
    cleanupProject(name);
    tryDockerCli(['rmi', '-f', repo.tagged('v1'), repo.tagged('v2'), ...repo.images]);
    await browser?.close();
    await server?.stop();
  });

  it('Revisions tab: diff of two deploys, then Roll back (the plan confirmed first) to the old digest', async () => {
    expect(running()).toBe(repo.images[1]);
    const { page } = await newPage(browser, server.baseUrl);
    await signIn(page, EMAIL, password);
    await page.goto(`/#/projects/${name}`);
    await expectRouteName(page, 'Project Details');
    await page.getByRole('tab', { name: 'Revisions' }).click();
    const rows = page.getByRole('table', { name: 'Revisions' }).locator('tbody tr');
    await rows.first().waitFor();
    expect(await rows.count()).toBe(2);

    await rows.first().getByRole('button', { name: 'Diff' }).click();
    const diff = page.getByRole('table', { name: 'Compose file diff' });
    await diff
      .locator('tr[data-kind="changed"]')
      .filter({ hasText: repo.tagged('v1') })
      .waitFor();
    expect(await diff.locator('tr[data-kind="changed"]').innerText()).toContain(repo.tagged('v2'));

    await rows.nth(1).getByRole('button', { name: 'Roll back' }).click();
    const dialog = page.getByRole('dialog', { name: `Roll ${name} back to revision 1?` });
    await dialog.getByText('Recreated (their containers are replaced)').waitFor();
    await dialog.getByText('web', { exact: true }).waitFor();
    expect(running()).toBe(repo.images[1]);
    await dialog.getByRole('button', { name: 'Roll back' }).click();
    await page.getByText(`${name} has been rolled back to revision 1.`).waitFor({ timeout: 60_000 });
    await rows.filter({ hasText: 'rollback to 1' }).waitFor();
    expect(running()).toBe(repo.images[0]);
  });
});
