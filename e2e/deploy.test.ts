import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dockerCli, testEngine, removeContainersNamed } from '../server/test/helpers/engine';
import { expectRouteName, launchBrowser, newPage, signIn } from './helpers/browser';
import { button, choose, clearSelect, field, fillAndLeave, openFresh } from './helpers/form';
import { startServer, type TestServer } from './helpers/server';
import { addUser } from './helpers/users';

const EMAIL = 'admin@berth.local';
const PASSWORD = 'berth-e2e-deploy-pw';
/** The form tests click through many fields; the shared test machine can be slow. */
const SLOW = 240_000;
const PREFIX = `berth-t-deploy-${Math.random().toString(36).slice(2, 8)}`;

interface Inspect {
  Id: string;
  Config: { Image: string; Env: string[]; Cmd: string[]; Labels: Record<string, string> };
  HostConfig: {
    PortBindings: Record<string, { HostIp: string; HostPort: string }[]>;
    NanoCpus: number;
    Memory: number;
    RestartPolicy: { Name: string };
    Binds: string[] | null;
    CapAdd: string[] | null;
  };
}
const inspect = (name: string) => (JSON.parse(dockerCli(['inspect', name])) as Inspect[])[0]!;

/** A port nothing on this host listens on right now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '0.0.0.0', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

const shown = (page: Page, text: string) => page.getByText(text, { exact: true }).first().waitFor({ timeout: 5_000 });

describe('deploy form', () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  let hostDir: string;
  const appName = `${PREFIX}-app`;

  beforeAll(async () => {
    testEngine();
    hostDir = fs.mkdtempSync(path.join(os.tmpdir(), `${PREFIX}-`));
    server = await startServer({ env: { ADMIN_EMAIL: EMAIL, ADMIN_PASSWORD: PASSWORD } });
    browser = await launchBrowser();
    ({ page } = await newPage(browser, server.baseUrl));
    await signIn(page, EMAIL, PASSWORD);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    removeContainersNamed(PREFIX);
    if (hostDir) fs.rmSync(hostDir, { recursive: true, force: true });
  });

  it(
    'shows every deploy rule inline and keeps Continue disabled while the step is invalid',
    async () => {
      await page.goto('/#/apps/deploy');
      await expectRouteName(page, 'Add Application');
      await page.getByRole('link', { name: 'From Template' }).waitFor();
      const cont = button(page, 'Continue');
      await expect.poll(() => cont.isDisabled()).toBe(true);

      // Step 1: Name, Image, Restart Policy required.
      await fillAndLeave(page, 'Name', '');
      await shown(page, 'Name is required.');
      await fillAndLeave(page, 'Name', appName);
      await fillAndLeave(page, 'Image', '');
      await shown(page, 'Image is required.');
      await fillAndLeave(page, 'Image', 'UPPER CASE!');
      await page
        .getByText(/invalid|not a valid|reference/i)
        .first()
        .waitFor();
      await fillAndLeave(page, 'Image', process.env.BERTH_TEST_IMAGE!);
      await field(page, 'Restart Policy').focus();
      await field(page, 'Restart Policy').blur();
      await shown(page, 'Restart Policy is required.');
      await expect.poll(() => cont.isDisabled()).toBe(true);
      await choose(page, 'Restart Policy', 'unless-stopped');
      await expect.poll(() => cont.isEnabled()).toBe(true);
      await cont.click();

      // Step 2: network and mode exclude each other; host networking hides the ports.
      await choose(page, 'Network Mode', 'host');
      await expect.poll(() => field(page, 'Network').isDisabled()).toBe(true);
      expect(await page.getByRole('group', { name: 'Ports' }).count()).toBe(0);
      await clearSelect(page, 'Network Mode');
      await expect.poll(() => field(page, 'Network').isEnabled()).toBe(true);
      await page.getByRole('group', { name: 'Ports' }).waitFor();
      await choose(page, 'Network', 'bridge');
      await expect.poll(() => field(page, 'Network Mode').isDisabled()).toBe(true);
      await clearSelect(page, 'Network');
      await expect.poll(() => field(page, 'Network Mode').isEnabled()).toBe(true);

      await button(page, 'Add port').click();
      await expect.poll(() => cont.isDisabled()).toBe(true);
      expect(await page.getByRole('radio', { name: 'tcp' }).isChecked()).toBe(true);
      await fillAndLeave(page, 'Container port 1', '');
      await shown(page, 'Container port is required.');
      await fillAndLeave(page, 'Container port 1', '70000');
      await shown(page, 'Container port must be a number between 0 and 65535.');
      await fillAndLeave(page, 'Host port 1', 'http');
      await shown(page, 'Host port must be a number between 0 and 65535.');
      await fillAndLeave(page, 'Host port 1', '');
      await fillAndLeave(page, 'Host IP 1', 'localhost');
      await shown(page, 'Host IP must be an IPv4 or IPv6 address (empty = all interfaces).');
      await fillAndLeave(page, 'Host IP 1', '');
      await fillAndLeave(page, 'Container port 1', '80');
      await expect.poll(() => cont.isEnabled()).toBe(true);
      await button(page, 'Remove port 1').click();
      await cont.click();

      // Step 3: both halves of a volume row.
      await button(page, 'Add volume').click();
      await expect.poll(() => cont.isDisabled()).toBe(true);
      // An empty host is an anonymous volume (issue 39 #7), and the field says so.
      expect(await field(page, 'Volume host 1').getAttribute('placeholder')).toBe('anonymous volume');
      await fillAndLeave(page, 'Volume container 1', '');
      await shown(page, 'Container path is required.');
      await button(page, 'Remove volume 1').click();
      await cont.click();

      // Step 4: env rows, then the Advanced panel's lists and limits.
      const deploy = button(page, 'Deploy');
      await button(page, 'Add variable').click();
      await expect.poll(() => deploy.isDisabled()).toBe(true);
      await fillAndLeave(page, 'Variable name 1', '');
      await shown(page, 'Variable name is required.');
      await fillAndLeave(page, 'Variable value 1', '');
      await shown(page, 'Value is required.');
      await button(page, 'Remove variable 1').click();
      await expect.poll(() => deploy.isEnabled()).toBe(true);

      await page.getByRole('button', { name: 'Advanced' }).click();
      await button(page, 'Add command entry').click();
      await fillAndLeave(page, 'Command entry 1', '');
      await shown(page, 'Command entries are required.');
      await button(page, 'Add device').click();
      await fillAndLeave(page, 'Device container 1', '');
      await shown(page, 'Container device is required.');
      await fillAndLeave(page, 'Device host 1', '');
      await shown(page, 'Host device is required.');
      await button(page, 'Add label').click();
      await fillAndLeave(page, 'Label name 1', '');
      await shown(page, 'Label is required.');
      await button(page, 'Add sysctl').click();
      await fillAndLeave(page, 'Sysctl name 1', '');
      await shown(page, 'Sysctl name is required.');
      await fillAndLeave(page, 'Sysctl value 1', '');
      await shown(page, 'Sysctl value is required.');
      await page.getByText('a number with b, k, m or g (1000b, 100k, 10m, 1g)', { exact: false }).waitFor();
      await fillAndLeave(page, 'Memory Limit', '10x');
      await shown(page, 'Memory limit must be a number with b, k, m or g (1000b, 100k, 10m, 1g).');
      await fillAndLeave(page, 'CPU Cores', 'many');
      await shown(page, 'CPU cores must be a number such as 0.5 or 2.');
      await expect.poll(() => deploy.isDisabled()).toBe(true);

      // A label needs no value; with the rest removed or fixed, Deploy is enabled again.
      await fillAndLeave(page, 'Label name 1', 'berth.test');
      for (const noun of ['command entry', 'device', 'sysctl']) await button(page, `Remove ${noun} 1`).click();
      await fillAndLeave(page, 'Memory Limit', '');
      await fillAndLeave(page, 'CPU Cores', '');
      await expect.poll(() => deploy.isEnabled()).toBe(true);

      // Steps can be selected directly.
      await page.getByRole('button', { name: /General/ }).click();
      expect(await field(page, 'Name').inputValue()).toBe(appName);
    },
    SLOW,
  );

  it(
    'deploys an app with a port, a volume, env, a label, command, capability, cpus and memory',
    async () => {
      const hport = await freePort();
      await openFresh(page, '/#/apps/deploy');
      await fillAndLeave(page, 'Name', appName);
      await fillAndLeave(page, 'Image', process.env.BERTH_TEST_IMAGE!);
      await choose(page, 'Restart Policy', 'unless-stopped');
      // One command line, split like a shell (issue 39 #12); an unclosed quote is marked on the field.
      await field(page, 'Command').fill(`sh -c "sleep 3600`);
      await page.getByText('The command has an unclosed double quote.').waitFor();
      await field(page, 'Command').fill(`sh -c 'sleep 3600'`);
      await button(page, 'Continue').click();

      await button(page, 'Add port').click();
      await field(page, 'Port label 1').fill('Web');
      await field(page, 'Host IP 1').fill('127.0.0.1');
      await field(page, 'Host port 1').fill(String(hport));
      await field(page, 'Container port 1').fill('8080');
      await page.getByText('udp', { exact: true }).click();
      await button(page, 'Continue').click();

      await button(page, 'Add volume').click();
      await field(page, 'Volume host 1').fill(hostDir);
      await field(page, 'Volume container 1').fill('/data');
      await button(page, 'Continue').click();

      await button(page, 'Add variable').click();
      await field(page, 'Variable name 1').fill('GREETING');
      await field(page, 'Variable value 1').fill('hello');
      // Advanced opens by itself since the command is set, and shows the line's arguments, one a row.
      expect(await page.getByRole('button', { name: 'Advanced' }).getAttribute('aria-expanded')).toBe('true');
      for (const [i, arg] of ['sh', '-c', 'sleep 3600'].entries())
        expect(await field(page, `Command entry ${i + 1}`).inputValue()).toBe(arg);
      expect(await field(page, 'Command entry 4').count()).toBe(0);
      await button(page, 'Add label').click();
      await field(page, 'Label name 1').fill('berth.test');
      await field(page, 'Label value 1').fill('1');
      await field(page, 'Capabilities').click();
      await page.getByRole('option', { name: 'NET_ADMIN', exact: true }).click();
      await page.keyboard.press('Escape');
      await field(page, 'CPU Cores').fill('0.5');
      await field(page, 'Memory Limit').fill('64m');

      // Hold the request a moment so the in-flight state can be seen.
      await page.route('**/api/apps/deploy', async (route) => {
        await new Promise((r) => setTimeout(r, 800));
        await route.continue();
      });
      await button(page, 'Deploy').click();
      await button(page, 'Deploying').waitFor();
      // Lands on the new app's page (issue 39 #13).
      await expectRouteName(page, 'Info');
      expect(new URL(page.url()).hash).toBe(`#/apps/${appName}/info`);
      await page.unroute('**/api/apps/deploy');

      const c = inspect(appName);
      expect(c.Config.Image).toBe(process.env.BERTH_TEST_IMAGE);
      expect(c.Config.Env).toContain('GREETING=hello');
      expect(c.Config.Cmd).toEqual(['sh', '-c', 'sleep 3600']);
      expect(c.Config.Labels).toMatchObject({ 'berth.test': '1', [`local.berth.port.${hport}`]: 'Web' });
      expect(c.HostConfig.PortBindings).toEqual({ '8080/udp': [{ HostIp: '127.0.0.1', HostPort: String(hport) }] });
      expect(c.HostConfig.NanoCpus).toBe(500_000_000);
      expect(c.HostConfig.Memory).toBe(64 * 1024 * 1024);
      expect(c.HostConfig.RestartPolicy.Name).toBe('unless-stopped');
      expect(c.HostConfig.Binds).toEqual([expect.stringMatching(new RegExp(`^${hostDir}:/data`))]);
      expect(c.HostConfig.CapAdd).toEqual(['NET_ADMIN']);
    },
    SLOW,
  );

  it(
    'edits the app from its configuration and replaces it after confirmation',
    async () => {
      const before = inspect(appName);
      const hport = Object.values(before.HostConfig.PortBindings)[0]![0]!.HostPort;
      await openFresh(page, `/#/apps/edit/${appName}`);
      await expectRouteName(page, 'Edit');
      expect(await page.getByRole('link', { name: 'From Template' }).count()).toBe(0);
      expect(await field(page, 'Name').inputValue()).toBe(appName);
      expect(await field(page, 'Image').inputValue()).toBe(process.env.BERTH_TEST_IMAGE);
      expect(await field(page, 'Command').inputValue()).toBe(`sh -c 'sleep 3600'`);
      await button(page, 'Continue').click();
      expect(await field(page, 'Container port 1').inputValue()).toBe('8080');
      expect(await field(page, 'Host port 1').inputValue()).toBe(hport);
      // The loopback-only binding is shown and kept (issue 39 #1).
      expect(await field(page, 'Host IP 1').inputValue()).toBe('127.0.0.1');
      expect(await field(page, 'Port label 1').inputValue()).toBe('Web');
      expect(await page.getByRole('radio', { name: 'udp' }).isChecked()).toBe(true);
      await button(page, 'Continue').click();
      expect(await field(page, 'Volume container 1').inputValue()).toBe('/data');
      await button(page, 'Continue').click();
      // The image's own PATH is not the user's setting and is not listed.
      expect(await field(page, 'Variable name 1').inputValue()).toBe('GREETING');
      expect(await field(page, 'Variable name 2').count()).toBe(0);
      expect(await field(page, 'Command entry 3').inputValue()).toBe('sleep 3600');
      expect(await field(page, 'CPU Cores').inputValue()).toBe('0.5');
      expect(await field(page, 'Memory Limit').inputValue()).toBe('64m');
      expect(await field(page, 'Label name 1').inputValue()).toBe('berth.test');
      expect(await field(page, 'Label name 2').count()).toBe(0);

      await field(page, 'Variable value 1').fill('bonjour');
      await button(page, 'Deploy').click();
      const dialog = page.getByRole('dialog');
      await dialog.getByText('will be removed and replaced', { exact: false }).waitFor();
      await dialog.getByRole('button', { name: 'Deploy' }).click();
      await expectRouteName(page, 'Info');

      const after = inspect(appName);
      expect(after.Id).not.toBe(before.Id);
      expect(after.Config.Env).toContain('GREETING=bonjour');
      expect(after.Config.Env).not.toContain('GREETING=hello');
      expect(after.Config.Labels[`local.berth.port.${hport}`]).toBe('Web');
      expect(after.HostConfig.Memory).toBe(before.HostConfig.Memory);
      expect(after.HostConfig.NanoCpus).toBe(before.HostConfig.NanoCpus);
      expect(after.Config.Cmd).toEqual(before.Config.Cmd);
      expect(after.HostConfig.PortBindings).toEqual(before.HostConfig.PortBindings);
      expect(after.HostConfig.PortBindings).toEqual({ '8080/udp': [{ HostIp: '127.0.0.1', HostPort: hport }] });
    },
    SLOW,
  );

  it(
    'returns to step 1 with the error in a notification that stays until closed',
    async () => {
      await openFresh(page, '/#/apps/deploy');
      await fillAndLeave(page, 'Name', appName); // taken by the app above
      await fillAndLeave(page, 'Image', process.env.BERTH_TEST_IMAGE!);
      await choose(page, 'Restart Policy', 'none');
      await page
        .getByRole('main')
        .getByRole('button', { name: /Environment/ })
        .click();
      await button(page, 'Deploy').click();
      const note = page.locator('.mantine-Notification-root').filter({ hasText: 'already in use' });
      await note.waitFor();
      expect(await note.innerText()).toMatch(/^Conflict: /m);
      expect(await field(page, 'Name').isVisible()).toBe(true);
      await page.waitForTimeout(9_000);
      expect(await note.isVisible()).toBe(true);
      await note.getByRole('button', { name: 'Close' }).click();
      await note.waitFor({ state: 'detached' });
    },
    SLOW,
  );
  it(
    "marks an operator's bind of Berth's data folder with the policy's words before submit, and deploys nothing",
    async () => {
      const operator = {
        email: 'deploy-operator@berth.test',
        password: 'deploy-operator-pw',
        role: 'operator' as const,
      };
      await addUser(server.baseUrl, { email: EMAIL, password: PASSWORD }, operator);
      const { context, page: op } = await newPage(browser, server.baseUrl);
      await signIn(op, operator.email, operator.password);
      const name = `${PREFIX}-refused`;
      await openFresh(op, '/#/apps/deploy');
      await fillAndLeave(op, 'Name', name);
      await fillAndLeave(op, 'Image', process.env.BERTH_TEST_IMAGE!);
      await choose(op, 'Restart Policy', 'unless-stopped');
      await button(op, 'Continue').click();
      await button(op, 'Continue').click();
      await button(op, 'Add volume').click();
      await field(op, 'Volume host 1').fill(server.dataDir);
      await field(op, 'Volume container 1').fill('/data');
      // The rule's own words on the field, before anything is sent; the step cannot go on.
      await op
        .getByText(`Bind mount ${server.dataDir} would expose`, { exact: false })
        .first()
        .waitFor({ timeout: 15_000 });
      await op.getByText('only an admin can deploy it', { exact: false }).first().waitFor();
      expect(await field(op, 'Volume host 1').getAttribute('aria-invalid')).toBe('true');
      expect(await button(op, 'Continue').isDisabled()).toBe(true);
      expect(dockerCli(['ps', '-aq', '--filter', `name=${name}`]).trim()).toBe('');
      await context.close();
    },
    SLOW,
  );
});
