import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeContainersNamed, testEngine, tryDockerCli } from '../server/test/helpers/engine';
import { expectRouteName, newPage, signIn } from './helpers/browser';
import type { TestServer } from './helpers/server';
import { withConsole } from './helpers/console';

const EMAIL = 'admin@berth.local';
const NAME = `berth-t-ops-${randomBytes(3).toString('hex')}`;

describe('events, audit log and notifications', () => {
  let server: TestServer;
  let browser: Browser;
  let password: string;
  let receiver: http.Server;
  let hookUrl: string;
  const received: string[] = [];
  withConsole((run) => ({ server, browser, password } = run));
  beforeAll(async () => {
    receiver = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        received.push(body);
        res.end('ok');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  });
  afterAll(async () => {
    removeContainersNamed(NAME);
    await new Promise((resolve) => receiver?.close(resolve));
  });

  it('shows engine events live, a test notification delivered, and the changes in the audit log', async () => {
    const { context, page } = await newPage(browser, server.baseUrl);
    await signIn(page, EMAIL, password);
    await page.goto('/#/events');
    await expectRouteName(page, 'Events');
    await page.getByRole('textbox', { name: 'Name' }).fill(NAME);
    // Made after the page is open: the row arrives through the live stream.
    tryDockerCli(['run', '--name', NAME, '--label', 'berth.test=1', testEngine().image, 'sh', '-c', 'exit 2']);
    await page
      .getByRole('table', { name: 'Engine events' })
      .getByText('exitCode=2')
      .first()
      .waitFor({ timeout: 20_000 });
    // Type and action are plain text shown whole, not chips cut to "c…".
    const died = page.getByRole('row').filter({ hasText: 'exitCode=2' }).first();
    for (const [i, text] of [
      [1, 'container'],
      [2, 'die'],
    ] as const) {
      const cell = died.getByRole('cell').nth(i);
      expect(await cell.textContent()).toBe(text);
      expect(await cell.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    }

    await page.goto('/#/settings/notifications');
    await expectRouteName(page, 'Notifications');
    await page.getByRole('button', { name: 'Add channel' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill('ops-hook');
    await dialog.getByRole('textbox', { name: 'URL', exact: true }).fill(hookUrl);
    await dialog.getByLabel('Secret header value').fill('e2e-secret-value');
    await dialog.getByRole('button', { name: 'Add', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Test ops-hook' }).click();
    await page.getByText('Test message sent through ops-hook.').waitFor();
    await page.getByRole('table', { name: 'Notification deliveries' }).getByText('sent', { exact: true }).waitFor();
    if (!received.some((b) => b.includes('Test message from Berth')))
      throw new Error('the receiver got no test message');

    // Threshold rules of every kind through the form (issue 36): the table says each condition.
    const kinds = [
      {
        when: 'App CPU above a threshold',
        above: '90',
        minutes: '2',
        of: null,
        says: 'above 90 % of its limit for 2 min',
      },
      {
        when: 'App memory above a threshold',
        above: '75',
        minutes: '5',
        of: 'Of the host',
        says: 'above 75 % of the host for 5 min',
      },
      { when: 'Host CPU above a threshold', above: '95', minutes: '10', of: null, says: 'above 95 % for 10 min' },
      { when: 'Host memory above a threshold', above: '85', minutes: '1', of: null, says: 'above 85 % for 1 min' },
      {
        when: "Disk of Berth's data folder above a threshold",
        above: '80',
        minutes: '3',
        of: null,
        says: 'above 80 % for 3 min',
      },
      {
        when: "Disk of the engine's data root above a threshold",
        above: '70',
        minutes: '4',
        of: null,
        says: 'above 70 % for 4 min',
      },
      { when: 'Volume size above a threshold', above: '3', minutes: null, of: null, says: 'above 3 GB' },
    ];
    const rules = page.getByRole('table', { name: 'Notification rules' });
    for (const k of kinds) {
      await page.getByRole('button', { name: 'Add rule' }).click();
      const rule = page.getByRole('dialog', { name: 'Add a notification rule' });
      await rule.getByRole('textbox', { name: 'When' }).click();
      await page.getByRole('option', { name: k.when, exact: true }).click();
      // The pills box over the field takes the click; forced, it opens the list the same way.
      await rule.getByRole('textbox', { name: 'Send to' }).click({ force: true });
      await page.getByRole('option', { name: 'ops-hook', exact: true }).click();
      const above = rule.getByRole('textbox', { name: k.minutes === null ? 'Above (GB)' : 'Above (%)' });
      await above.fill(k.above);
      if (k.minutes !== null) await rule.getByRole('textbox', { name: 'For (minutes)' }).fill(k.minutes);
      else await rule.getByRole('textbox', { name: 'Volume' }).fill('e2e-data');
      if (k.of) await rule.getByText(k.of, { exact: true }).click();
      await rule.getByRole('button', { name: 'Add', exact: true }).click();
      await rule.waitFor({ state: 'detached' });
      await rules.getByRole('row').filter({ hasText: k.when }).filter({ hasText: k.says }).waitFor();
    }
    await rules.getByRole('row').filter({ hasText: 'volume: e2e-data' }).waitFor();

    await page.goto('/#/settings/audit');
    await expectRouteName(page, 'Audit Log');
    const audit = page.getByRole('table', { name: 'Audit log' });
    // A sentence an entry; the raw route is in the entry's details.
    await audit.getByText(`${EMAIL} added notification channel ops-hook`, { exact: true }).waitFor();
    const tested = audit.getByRole('row').filter({ hasText: /sent a test message through notification channel \d+/ });
    await tested.waitFor();
    expect(await audit.getByText('/api/notifications/channels').count()).toBe(0);
    await tested.getByRole('button', { name: /^Details of entry / }).click();
    const details = page.getByRole('table', { name: 'Audit entry details' });
    await details.getByText('POST /api/notifications/channels/{id}/test', { exact: true }).waitFor();
    await page.keyboard.press('Escape');
    await details.waitFor({ state: 'detached' });
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export CSV' }).click();
    if (!(await download).suggestedFilename().endsWith('.csv')) throw new Error('the export is not a CSV file');
    await context.close();
  });
});
