import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEngine } from '../server/test/helpers/engine';
import { ConsoleWatch, seriousViolations } from './helpers/audit';
import { launchBrowser, newPage, routeName, signIn } from './helpers/browser';
import { field } from './helpers/form';
import { TestRepo } from '../server/test/helpers/git-repos';
import { startServer, type TestServer } from './helpers/server';
import { json, startCatalogueServer, type CatalogueServer } from '../server/test/templates-fixtures';

const EMAIL = 'admin@berth.local';
const PASSWORD = 'berth-e2e-swarm-password';

/** The harness's single-node swarm engine (scripts/test-env.sh exports it). */
function swarmHost(): string {
  const host = process.env.BERTH_TEST_SWARM_HOST;
  if (!host)
    throw new Error(
      'BERTH_TEST_SWARM_HOST is unset: run `npm test` (scripts/test-env.sh starts the swarm engine) or source .test-env/env.sh',
    );
  return host;
}

describe('swarm', () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  let cat: CatalogueServer;
  const name = `berth-e2e-svc-${randomBytes(3).toString('hex')}`;
  const label = `berth-e2e-${randomBytes(3).toString('hex')}`;
  const cli = (args: string[]) =>
    spawnSync(process.env.BERTH_TEST_DOCKER_CLI || 'docker', ['--host', swarmHost(), ...args], {
      timeout: 60_000,
      encoding: 'utf8',
    });

  beforeAll(async () => {
    server = await startServer({
      dockerHost: swarmHost(),
      env: { ADMIN_PASSWORD: PASSWORD, TEMPLATE_FETCH_ALLOW_LOOPBACK: 'true' },
    });
    cat = await startCatalogueServer();
    browser = await launchBrowser();
    ({ page } = await newPage(browser, server.baseUrl));
    // Generous bounds: on a loaded machine a lazily loaded page (the YAML editor) takes a while.
    page.setDefaultTimeout(60_000);
    await signIn(page, EMAIL, PASSWORD);
  });
  afterAll(async () => {
    cli(['service', 'rm', name]);
    for (const node of String(cli(['node', 'ls', '-q']).stdout)
      .split('\n')
      .filter(Boolean))
      cli(['node', 'update', '--label-rm', label, node]);
    await browser?.close();
    await server?.stop();
    await cat?.close();
  });

  const onRoute = (name: string) =>
    routeName(page)
      .filter({ hasText: new RegExp(`^${name}$`) })
      .waitFor();
  const notification = (text: string | RegExp) => page.locator('.mantine-Notification-root').filter({ hasText: text });
  const tasksRunning = (n: number) =>
    page
      .getByRole('table', { name: 'Tasks' })
      .getByRole('row')
      .filter({ hasText: /running\s*running/i })
      .nth(n - 1);

  it('creates a service from the sidebar, scales it and removes it', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Services' }).click();
    await onRoute('Services');
    await page.getByRole('link', { name: 'Create Service' }).click();
    const form = page.getByRole('form', { name: 'Create Service' });
    await form.getByLabel('Name').fill(name);
    await form.getByLabel('Image').fill(testEngine().image);
    await form.getByLabel('Replicas').fill('1');
    await form.getByLabel('Command').fill("sh\n-c\ntrap 'exit 0' TERM; echo ready-$HOSTNAME; sleep 600 & wait");
    await form.getByRole('button', { name: /^Resources/ }).click();
    await form.getByLabel('Memory limit (MiB)').fill('64');
    await form.getByRole('button', { name: 'Create' }).click();
    await notification(`Service ${name} created.`).waitFor();
    await onRoute('Service');
    await page.getByText('limits 64 MB; reservations none').waitFor();
    await tasksRunning(1).waitFor({ timeout: 60_000 });
    // The shared log view (with its toolbar) shows the task's line.
    await page
      .getByText(/^ready-/)
      .first()
      .waitFor();

    await page.getByLabel(`Replicas of ${name}`).fill('2');
    await page.getByRole('button', { name: `Scale ${name}` }).click();
    await notification(`${name} scaled to 2.`).waitFor();
    await tasksRunning(2).waitFor({ timeout: 60_000 });

    // A scale sent with a version that moved meanwhile: the edit form's notice, at the control; Reload reads the service again.
    // The page's clock is paused while the service changes elsewhere, so its 3 s refresh cannot pick up the new version first.
    await page.clock.install();
    await page.reload();
    await page.getByLabel(`Replicas of ${name}`).waitFor();
    await page.clock.pauseAt(Date.now() + 60_000);
    expect(cli(['service', 'update', '--detach', '--label-add', 'berth.e2e=scaled-elsewhere', name]).status).toBe(0);
    await page.getByLabel(`Replicas of ${name}`).fill('3');
    const refused = page.waitForResponse(
      (r) => r.request().method() === 'POST' && r.url().includes('/swarm/services/') && r.status() === 409,
    );
    await page.getByRole('button', { name: `Scale ${name}` }).click();
    await refused;
    await page.clock.resume();
    const notice = page.getByRole('dialog').filter({ hasText: 'This service changed since you opened it' });
    await notice.getByRole('button', { name: 'Reload' }).click();
    await notice.waitFor({ state: 'hidden' });
    await page.getByRole('button', { name: `Scale ${name}` }).click();
    await notification(`${name} scaled to 3.`).waitFor();

    // A change made elsewhere while the form is open: the save is refused as stale, and Reload reads the service again.
    await page.getByRole('button', { name: 'Edit', exact: true }).click();
    const edit = page.getByRole('form', { name: `Edit service ${name}` });
    await edit.getByLabel('Image').waitFor();
    expect(cli(['service', 'update', '--detach', '--label-add', 'berth.e2e=changed', name]).status).toBe(0);
    await edit.getByRole('button', { name: 'Update', exact: true }).click();
    await edit.getByText('This service changed since you opened it').waitFor();
    await edit.getByRole('button', { name: 'Reload' }).click();
    await expect.poll(() => edit.getByLabel('Labels').inputValue()).toContain('berth.e2e=changed');
    await page.getByRole('button', { name: 'Close the form' }).click();

    await page.getByRole('button', { name: 'Remove' }).click();
    await page.getByRole('dialog', { name: 'Remove the service?' }).getByRole('button', { name: 'Remove' }).click();
    await notification(`Service ${name} removed.`).waitFor();
    await onRoute('Services');
  });

  it('adds a label to a node from the Nodes page', async () => {
    await page.goto('/#/swarm/nodes');
    await onRoute('Nodes');
    await page
      .getByRole('button', { name: /^Edit labels of / })
      .first()
      .click();
    const dialog = page.getByRole('dialog', { name: /^Labels of / });
    await dialog.getByRole('button', { name: 'Add label' }).click();
    await dialog.getByLabel('Label 1 name').fill(label);
    await dialog.getByLabel('Label 1 value').fill('yes');
    await dialog.getByRole('button', { name: 'Save labels' }).click();
    await notification(/Labels of .* saved\./).waitFor();
    await page.getByRole('table', { name: 'Nodes' }).getByText(`${label}=yes`).waitFor();
  });

  it('makes a stack template into a swarm stack, opened in the stack editor for review', async () => {
    const stackName = `${label}-stack`;
    cat.routes.set('/repo/stack.yml', json(`services:\n  web:\n    image: \${IMAGE}\n`, 'text/plain'));
    cat.routes.set(
      '/catalogue.json',
      json({
        version: '3',
        templates: [
          {
            type: 2,
            title: 'Swarm greeter',
            repository: { url: `${cat.base}/repo`, stackfile: 'stack.yml' },
            env: [{ name: 'IMAGE', default: 'busybox' }],
          },
        ],
      }),
    );
    // The catalogue is added through the API as the admin; the journey is the deploy dialog.
    const login = await fetch(`${server.baseUrl}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: EMAIL, password: PASSWORD }),
    });
    const cookies = login.headers.getSetCookie().map((c) => c.split(';')[0]!);
    const csrf = cookies.find((c) => c.startsWith('csrf_access_token='))!.split('=')[1]!;
    const made = await fetch(`${server.baseUrl}/api/templates/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: cookies.join('; '), 'x-csrf-token': csrf },
      body: JSON.stringify({ title: 'Swarm catalogue', url: `${cat.base}/catalogue.json` }),
    });
    expect(made.status).toBe(200);
    await page.goto(`/#/templates/${((await made.json()) as { id: number }).id}`);
    await page
      .getByRole('group', { name: 'Swarm greeter', exact: true })
      .getByRole('button', { name: 'Deploy' })
      .click();
    const dialog = page.getByRole('dialog');
    // On a swarm manager a swarm template becomes a stack by default.
    await dialog.getByText('As a swarm stack').waitFor();
    expect(await dialog.getByRole('radio', { name: 'As a swarm stack' }).isChecked()).toBe(true);
    await dialog.getByLabel('Stack name').fill(stackName);
    await dialog.getByRole('button', { name: 'Create stack' }).click();
    await onRoute('Stack');
    await page.getByText('Not deployed yet: review the file, then Deploy.').waitFor();
    await page.getByText('image: busybox').first().waitFor();
  });

  it('makes a stack from git and deploys it from its git card', async () => {
    const repo = new TestRepo('e2e-stack');
    const stackName = `${label}-git`;
    try {
      const command = `["sh", "-c", "trap 'exit 0' TERM; sleep 600 & wait"]`;
      repo.commit({ 'stack.yml': `services:\n  web:\n    image: ${testEngine().image}\n    command: ${command}\n` });
      await page.goto('/#/swarm/stacks');
      await onRoute('Stacks');
      await page.getByRole('link', { name: 'From git' }).click();
      await onRoute('New stack from git');
      await field(page, 'Stack name').fill(stackName);
      await field(page, 'Repository URL').fill(repo.url('daemon'));
      await field(page, 'Stack file in the repository').fill('stack.yml');
      await page.getByRole('button', { name: 'Create from git' }).click();
      await page.getByRole('link', { name: `Open ${stackName}` }).click();
      await onRoute('Stack');
      await page.getByTestId('git-status').getByRole('button', { name: 'Deploy' }).click();
      await expect
        .poll(() => String(cli(['service', 'ls', '-q', '--filter', `name=${stackName}_web`]).stdout).trim(), {
          timeout: 60_000,
        })
        .not.toBe('');
    } finally {
      cli(['stack', 'rm', stackName]);
      repo.remove();
    }
  });

  it('shows every swarm page without console errors, failed calls or serious axe findings', async () => {
    const watch = new ConsoleWatch(page);
    const found: string[] = [];
    for (const [path, name] of [
      ['swarm', 'Swarm'],
      ['swarm/nodes', 'Nodes'],
      ['swarm/services', 'Services'],
      ['swarm/services/new', 'Create Service'],
      ['swarm/stacks', 'Stacks'],
      ['swarm/stacks/new', 'Deploy Stack'],
      ['swarm/stacks/_/from-git', 'New stack from git'],
      ['swarm/configs', 'Configs'],
      ['swarm/secrets', 'Secrets'],
    ] as const) {
      await page.goto(`/#/${path}`);
      await onRoute(name);
      await page.getByRole('heading', { name, level: 2 }).waitFor();
      await expect.poll(() => page.locator('.mantine-Loader-root:visible').count(), { timeout: 60_000 }).toBe(0);
      const seen = watch.take();
      found.push(
        ...(await seriousViolations(page)).map((v) => `${path}: axe ${v.id}: ${v.help} @ ${v.targets.join(' | ')}`),
        ...seen.messages.map((m) => `${path}: console ${m}`),
        ...seen.failedApi.map((m) => `${path}: API ${m}`),
      );
    }
    expect(found).toEqual([]);
  });
});
