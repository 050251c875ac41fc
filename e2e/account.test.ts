import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dockerCli, testEngine, tryDockerCli } from '../server/test/helpers/engine';
import { generate } from 'otplib';
import { expectRouteName, newPage, routeName, signIn, signOut } from './helpers/browser';
import type { TestServer } from './helpers/server';
import { withConsole } from './helpers/console';
import { addUser } from './helpers/users';

const EMAIL = 'admin@berth.local';

describe('account', () => {
  let server: TestServer;
  let browser: Browser;
  let password: string;
  withConsole((run) => ({ server, browser, password } = run));

  const meWithKey = (token: string) =>
    fetch(`${server.baseUrl}/api/auth/me`, { headers: { Authorization: `Bearer ${token}` } });

  it('generates an API key shown once, which works until it is revoked in the UI', async () => {
    const { context, page } = await newPage(browser, server.baseUrl, { clipboard: true });
    await signIn(page, EMAIL, password);
    await page.getByRole('button', { name: 'User menu' }).click();
    await page.getByRole('menuitem', { name: 'User' }).click();
    await expectRouteName(page, 'User Info');
    await page.getByRole('heading', { name: EMAIL }).waitFor();

    const keyName = `berth-t-account-${Math.random().toString(36).slice(2, 8)}`;
    await page.getByRole('button', { name: 'Generate API Key' }).click();
    const dialog = page.getByRole('dialog', { name: 'Generate API Key' });
    const generate = dialog.getByRole('button', { name: 'Generate Key' });
    expect(await generate.isDisabled()).toBe(true);
    await dialog.getByLabel('Name').fill(keyName);
    // Changed on purpose (issue 22.5): a key is only made after re-entering the current password.
    expect(await generate.isDisabled()).toBe(true);
    await dialog.getByLabel('Current Password').fill(password);
    await generate.click();
    const tokenBox = dialog.getByRole('textbox', { name: 'API Key' });
    await tokenBox.waitFor();
    expect(await tokenBox.getAttribute('readonly')).not.toBeNull();
    await dialog.getByText('cannot be retrieved after this dialog is closed').waitFor();
    const token = await tokenBox.inputValue();
    expect(token.length).toBeGreaterThan(20);

    await dialog.getByRole('button', { name: 'Copy API key' }).click();
    await page.getByText('Copied to clipboard').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(token);

    await dialog.getByRole('button', { name: 'Done' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const table = page.getByRole('table', { name: 'API Keys' });
    await table.getByRole('cell', { name: keyName, exact: true }).waitFor();
    // The token is never shown again.
    expect(await page.getByText(token).count()).toBe(0);

    const ok = await meWithKey(token);
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as { username: string }).username).toBe(EMAIL);

    await table.getByRole('button', { name: `Revoke ${keyName}` }).click();
    await page.getByRole('dialog', { name: 'Revoke the API key?' }).getByRole('button', { name: 'Revoke' }).click();
    await table.getByRole('cell', { name: keyName, exact: true }).waitFor({ state: 'detached' });
    expect((await meWithKey(token)).status).toBe(401);
    await context.close();
  });

  it('turns on two-factor sign-in with the QR setup, then signs in with a code (a second user)', async () => {
    // The user is made through the API as the admin; the journey is theirs.
    const user = {
      email: `totp-${Math.random().toString(36).slice(2, 8)}@berth.test`,
      password: 'totp-journey-password',
    };
    await addUser(server.baseUrl, { email: EMAIL, password }, { ...user, role: 'viewer' });

    const { context, page } = await newPage(browser, server.baseUrl, { clipboard: true });
    await signIn(page, user.email, user.password, { path: '/#/user/security' });
    await expectRouteName(page, 'Security');
    await page.getByRole('button', { name: 'Set Up' }).click();
    await page.getByRole('img', { name: 'QR code for the authenticator app' }).waitFor();
    const secret = (await page.locator('code').first().textContent())!.trim();
    await page.getByLabel('Code', { exact: true }).fill(await generate({ secret }));
    await page.getByRole('button', { name: 'Turn On' }).click();
    await page.getByText('They are not shown again').waitFor();
    const codes = await page.getByLabel('Recovery codes').locator('code').allTextContents();
    expect(codes).toHaveLength(10);
    // Copy all puts every code on the clipboard, one a line; Download saves the same codes as a text file.
    await page.getByRole('button', { name: 'Copy all' }).click();
    expect((await page.evaluate(() => navigator.clipboard.readText())).split('\n')).toEqual(codes);
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download', exact: true }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe('berth-recovery-codes.txt');
    const saved = fs.readFileSync((await file.path())!, 'utf8');
    for (const c of codes) expect(saved).toContain(`\n${c}\n`);

    await signOut(page);
    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Password', { exact: true }).fill(user.password);
    await page.getByRole('button', { name: 'Login' }).click();
    // A code of the next period: the one used to turn TOTP on cannot be used again.
    await page
      .getByLabel('Code', { exact: true })
      .fill(await generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 }));
    await page.getByRole('button', { name: 'Verify' }).click();
    await routeName(page).waitFor({ timeout: 30_000 });
    // A viewer sees the admin-only settings tabs hidden and a clear message on their pages.
    await page.goto(`${server.baseUrl}/#/settings/users`);
    await page.getByText('This page needs the admin role and your account is a viewer').waitFor();
    await context.close();
  });

  it('refreshes an expired access token once and retries the call', async () => {
    const { context, page } = await newPage(browser, server.baseUrl);
    await signIn(page, EMAIL, password);
    // As if the 15-minute access token had expired: only the refresh cookie is left.
    const cookies = await context.cookies();
    await context.clearCookies();
    await context.addCookies(cookies.filter((c) => c.name.includes('refresh')));
    const refreshed = page.waitForResponse((r) => r.url().endsWith('/api/auth/refresh') && r.status() === 200);
    await page.goto('/#/user/info');
    await refreshed;
    await page.getByRole('table', { name: 'API Keys' }).waitFor();
    expect(await page.getByRole('button', { name: 'Login' }).count()).toBe(0);
    expect((await context.cookies()).some((c) => c.name === 'access_token_cookie')).toBe(true);
    await context.close();
  });

  it('signs out and shows the login form when the refresh fails too', async () => {
    const { context, page } = await newPage(browser, server.baseUrl);
    await signIn(page, EMAIL, password);
    await page.goto('/#/user/info');
    await page.getByRole('table', { name: 'API Keys' }).waitFor();
    await context.clearCookies();
    await page.getByRole('button', { name: 'Generate API Key' }).click();
    await page.getByRole('dialog').getByLabel('Name').fill('berth-t-account-late');
    await page.getByRole('dialog').getByLabel('Current Password').fill(password);
    await page.getByRole('button', { name: 'Generate Key' }).click();
    await page.getByRole('button', { name: 'Login' }).waitFor({ timeout: 20_000 });
    expect(new URL(page.url()).hash).toBe('#/');
    expect(await page.evaluate(() => localStorage.getItem('username'))).toBeNull();
    await context.close();
  });

  it('changes the password; the new one signs in and the old one is refused', async () => {
    const { context, page } = await newPage(browser, server.baseUrl);
    await signIn(page, EMAIL, password);
    await page.goto('/#/user/changePassword');
    await expectRouteName(page, 'Change Password');
    const button = page.getByRole('button', { name: 'Change User Info' });
    const email = page.getByLabel('Email');
    expect(await email.inputValue()).toBe(EMAIL);
    // Nothing changed yet (issue 23.9), even with the current password entered (issue 22.5).
    await page.getByLabel('Current Password').fill(password);
    expect(await button.isDisabled()).toBe(true);

    await email.fill('');
    await page.getByText('Email is required.').waitFor();
    await email.fill('not-an-email');
    expect(await button.isDisabled()).toBe(true);
    await email.fill(EMAIL);
    const newPassword = `berth-e2e-${Math.random().toString(36).slice(2, 10)}`;
    const newField = page.getByLabel('Password', { exact: true });
    await newField.fill(newPassword);
    // The eye toggle is named and the next Tab stop after its field.
    await newField.focus();
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => ({
      tag: document.activeElement?.tagName,
      name: document.activeElement?.getAttribute('aria-label'),
    }));
    expect(focused).toEqual({ tag: 'BUTTON', name: 'Show password' });
    await page.keyboard.press('Enter');
    expect(await newField.getAttribute('type')).toBe('text');
    await page.getByLabel('Confirm Password').fill(`${newPassword}x`);
    expect(await button.isDisabled()).toBe(true);
    await page.getByText('Passwords do not match.').waitFor();
    await page.getByLabel('Confirm Password').fill(newPassword);
    expect(await button.isDisabled()).toBe(false);
    await page.getByLabel('Confirm Password').press('Enter');
    await page.getByText(`Account ${EMAIL} updated.`, { exact: false }).waitFor();

    // Other sessions end on a password change; this one may too, so sign out when still in.
    if ((await page.getByRole('button', { name: 'User menu' }).count()) > 0) await signOut(page);
    await page.goto('/');
    await page.getByRole('button', { name: 'Login' }).waitFor();
    // On the login form too, the eye toggle follows the password field in Tab order, with a name.
    await page.getByLabel('Password', { exact: true }).focus();
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Show password');

    const oldLogin = await fetch(`${server.baseUrl}/api/auth/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ username: EMAIL, password }),
    });
    expect(oldLogin.status).toBe(401);
    await signIn(page, EMAIL, newPassword);
    await expectRouteName(page, 'Dashboard');
    password = newPassword;
    await context.close();
  });
  it('opens Add User with Viewer every time and says what each role may do (issue 39 #2)', async () => {
    const { context, page } = await newPage(browser, server.baseUrl);
    await signIn(page, EMAIL, password, { path: '/#/settings/users' });
    const tag = Math.random().toString(36).slice(2, 8);
    const open = async () => {
      await page.getByRole('button', { name: 'Add User', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: 'Add User' });
      await dialog.waitFor();
      return dialog;
    };
    const add = async (email: string, role?: string) => {
      const dialog = await open();
      expect(await dialog.getByRole('textbox', { name: 'Role' }).inputValue()).toBe('Viewer');
      for (const line of ['Viewer: sees apps', 'Operator: also deploys', 'Admin: also manages users'])
        await dialog.getByText(line, { exact: false }).waitFor();
      expect(await dialog.getByRole('textbox', { name: 'Email' }).inputValue()).toBe('');
      await dialog.getByRole('textbox', { name: 'Email' }).fill(email);
      await dialog.getByLabel(/^Password/).fill('add-user-journey-pw');
      if (role) {
        await dialog.getByRole('textbox', { name: 'Role' }).click();
        await page.getByRole('option', { name: role, exact: true }).click();
      }
      await dialog.getByLabel('Your current password').fill(password);
      await dialog.getByRole('button', { name: 'Add User' }).click();
      await dialog.waitFor({ state: 'hidden' });
      return page.getByRole('textbox', { name: `Role of ${email}` });
    };
    const operatorRole = await add(`op-${tag}@berth.test`, 'Operator');
    expect(await operatorRole.inputValue()).toBe('Operator');
    // The next dialog does not remember Operator: a user added without choosing is a viewer.
    const viewerRole = await add(`view-${tag}@berth.test`);
    expect(await viewerRole.inputValue()).toBe('Viewer');
    await context.close();
  });

  it('changes a role and deletes a user only once the admin confirms with their own password (hardening II #12)', async () => {
    const email = `confirm-${Math.random().toString(36).slice(2, 8)}@berth.test`;
    await addUser(
      server.baseUrl,
      { email: EMAIL, password },
      { email, password: 'confirm-user-password', role: 'viewer' },
    );
    const { context, page } = await newPage(browser, server.baseUrl);
    await signIn(page, EMAIL, password, { path: '/#/settings/users' });
    const role = page.getByRole('textbox', { name: `Role of ${email}` });
    await role.click();
    await page.getByRole('option', { name: 'Operator', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: `Change the role of ${email}` });
    const confirm = dialog.getByRole('button', { name: 'Change Role' });
    expect(await confirm.isDisabled()).toBe(true);
    await dialog.getByLabel('Your current password').fill('not-the-admin-password');
    await confirm.click();
    await page
      .getByText(/current password is wrong/)
      .first()
      .waitFor();
    expect(await role.inputValue()).toBe('Viewer');
    await dialog.getByLabel('Your current password').fill(password);
    await confirm.click();
    await dialog.waitFor({ state: 'hidden' });
    await expect.poll(() => role.inputValue()).toBe('Operator');

    await page.getByRole('button', { name: `Actions for ${email}` }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    const remove = page.getByRole('dialog', { name: 'Delete user' });
    await remove.getByLabel('Your current password').fill(password);
    await remove.getByRole('button', { name: 'Delete' }).click();
    await remove.waitFor({ state: 'hidden' });
    await role.waitFor({ state: 'detached' });
    await context.close();
  });

  describe('roles', () => {
    const tag = Math.random().toString(36).slice(2, 8);
    const app = `berth-t-roles-${tag}`;
    const project = `berth-t-roles-${tag}`;
    const viewer = { email: `viewer-${tag}@berth.test`, password: 'roles-viewer-password', role: 'viewer' as const };
    const operator = {
      email: `operator-${tag}@berth.test`,
      password: 'roles-operator-password',
      role: 'operator' as const,
    };

    beforeAll(async () => {
      // One created (never started) container and one project folder: every page has a row to act on.
      dockerCli(['create', '--name', app, '--label', 'berth.test=1', testEngine().image, 'true']);
      const dir = path.join(server.dataDir, 'compose', project);
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, 'compose.yaml'), `services:\n  web:\n    image: ${testEngine().image}\n`);
      for (const user of [viewer, operator]) await addUser(server.baseUrl, { email: EMAIL, password }, user);
    });
    afterAll(() => {
      tryDockerCli(['rm', '-f', app]);
    });

    /** A button or a link-styled button, by its exact name. */
    const control = (page: Page, name: string) =>
      page.getByRole('button', { name, exact: true }).or(page.getByRole('link', { name, exact: true }));
    const tab = (page: Page, name: string) => page.getByRole('tab', { name, exact: true });
    /** Counted only once the page is shown (the caller waits for something on it first). */
    async function expectNone(
      page: Page,
      names: string[],
      kind: (page: Page, name: string) => ReturnType<Page['getByRole']> = control,
    ) {
      for (const name of names) expect(await kind(page, name).count(), name).toBe(0);
    }

    async function openApps(page: Page) {
      await page.goto('/#/apps');
      await page.getByLabel('Search').fill(app);
      await page.getByRole('table', { name: 'Applications' }).getByRole('row').filter({ hasText: app }).waitFor();
    }
    async function openAppPage(page: Page) {
      await page.goto(`/#/apps/${app}/info`);
      await control(page, 'Refresh').first().waitFor();
      await tab(page, 'Stats').waitFor();
    }
    async function openProjects(page: Page) {
      await page.goto('/#/projects');
      await page.getByRole('table', { name: 'Projects' }).getByRole('row').filter({ hasText: project }).waitFor();
    }
    async function openImages(page: Page) {
      await page.goto('/#/resources/images');
      await page.getByRole('table', { name: 'Images' }).getByRole('row').nth(1).waitFor();
    }
    async function openSettings(page: Page) {
      await page.goto('/#/settings/info');
      await tab(page, 'Theme').waitFor();
    }

    it('a viewer sees no change buttons on apps, an app, projects, a project, images and settings', async () => {
      const { context, page } = await newPage(browser, server.baseUrl);
      await signIn(page, viewer.email, viewer.password);

      await openApps(page);
      await expectNone(page, ['Add', `Select ${app}`, `Actions for ${app}`]);
      expect(await page.getByRole('checkbox').count()).toBe(0);

      await openAppPage(page);
      await expectNone(page, ['Edit', 'Remove', 'Start', 'Download support bundle', 'Save auto-update']);
      await expectNone(page, ['Terminal'], tab);
      await page.goto(`/#/apps/${app}/terminal`);
      await page.getByText('This page needs the operator role and your account is a viewer').waitFor();

      await openProjects(page);
      await expectNone(page, ['Add']);
      // The row menu only offers View.
      await page.getByRole('button', { name: `Actions for ${project}` }).click();
      await page.getByRole('menuitem', { name: 'View' }).waitFor();
      for (const item of ['Controls', 'Edit', 'Delete'])
        expect(await page.getByRole('menuitem', { name: item }).count(), item).toBe(0);
      await page.keyboard.press('Escape');

      await page.goto(`/#/projects/${project}`);
      await tab(page, 'Overview').waitFor();
      await page.getByRole('heading', { name: project }).waitFor();
      await expectNone(page, ['Actions', 'Edit', 'Delete', 'Download Support Bundle', 'Adopt']);

      await openImages(page);
      await expectNone(page, ['Pull Image']);
      expect(await page.getByRole('checkbox').count()).toBe(0);
      await page
        .getByRole('table', { name: 'Images' })
        .getByRole('button', { name: /^Actions for / })
        .first()
        .click();
      await page.getByRole('menuitem', { name: 'View' }).waitFor();
      for (const item of ['Pull', 'Delete'])
        expect(await page.getByRole('menuitem', { name: item }).count(), item).toBe(0);
      await page.keyboard.press('Escape');

      await openSettings(page);
      await expectNone(page, ['Import', 'Export']);
      await expectNone(page, ['Prune', 'Users', 'Environments', 'Update'], tab);
      await context.close();
    });

    it('an operator sees the change buttons but not the admin-only ones', async () => {
      const { context, page } = await newPage(browser, server.baseUrl);
      await signIn(page, operator.email, operator.password);

      await openApps(page);
      for (const name of ['Add', `Select ${app}`, `Actions for ${app}`])
        await control(page, name).or(page.getByRole('checkbox', { name })).first().waitFor();

      await openAppPage(page);
      for (const name of ['Edit', 'Remove', 'Start', 'Download support bundle'])
        await control(page, name).first().waitFor();
      await tab(page, 'Terminal').waitFor();

      await openProjects(page);
      await control(page, 'Add').waitFor();
      await page.goto(`/#/projects/${project}`);
      for (const name of ['Actions', 'Edit', 'Delete']) await control(page, name).first().waitFor();

      await openImages(page);
      await control(page, 'Pull Image').waitFor();

      await openSettings(page);
      await control(page, 'Export').waitFor();
      await expectNone(page, ['Import']);
      await expectNone(page, ['Prune', 'Users', 'Environments', 'Update'], tab);
      await page.goto('/#/settings/prune');
      await page.getByText('This page needs the admin role and your account is an operator').waitFor();
      await context.close();
    });

    it('a refused single sign-on lands on the login page with its reason, and the code leaves the address', async () => {
      const { context, page } = await newPage(browser, server.baseUrl);
      await page.goto('/?sso_error=account_disabled');
      await page
        .getByRole('alert')
        .filter({ hasText: 'Your Berth account is disabled. Ask an admin to enable it.' })
        .waitFor();
      expect(new URL(page.url()).search).toBe('');
      await context.close();
    });
  });
});
