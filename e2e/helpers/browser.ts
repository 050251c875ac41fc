import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { expect } from 'vitest';

const CHROMIUM = process.env.BERTH_CHROMIUM ?? '/usr/bin/chromium';

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--headless',
    ],
  });
}

export interface PageOptions {
  width?: number;
  height?: number;
  /** Lets the page use the clipboard (copy buttons). */
  clipboard?: boolean;
  /**
   * Lets the app register its service worker. Off by default: a worker installing and claiming
   * the page in every fresh context adds a start-up step that, on a loaded machine, held up the
   * page's first chunks; the service worker's own journey turns it on.
   */
  serviceWorkers?: boolean;
}

/** A fresh context (own cookies and storage) with one page; page errors fail loudly in the log. */
export async function newPage(
  browser: Browser,
  baseUrl: string,
  opts: PageOptions = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    baseURL: baseUrl,
    viewport: { width: opts.width ?? 1280, height: opts.height ?? 800 },
    serviceWorkers: opts.serviceWorkers ? 'allow' : 'block',
  });
  if (opts.clipboard) await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseUrl });
  const page = await context.newPage();
  page.on('pageerror', (err) => console.error(`[page error] ${err.message}`));
  return { context, page };
}

/** The route name the top bar shows. */
export const routeName = (page: Page) => page.getByTestId('route-name');

export async function expectRouteName(page: Page, name: string): Promise<void> {
  // Generous: a page of a server on a machine also running the integration tests can take a while.
  await routeName(page)
    .filter({ hasText: new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) })
    .waitFor({ timeout: 45_000 });
}

/** Fills the login form and submits with Enter; resolves once the shell is shown. */
export async function signIn(page: Page, email: string, password: string, opts: { path?: string } = {}): Promise<void> {
  await page.goto(opts.path ?? '/');
  // The first page of a freshly started server sometimes took over 30 s to show the form in CI
  // (1 sign-in in ~60, always a file's first; cause not found). Wait longer, and load the page
  // once more if the form is still missing, before judging anything.
  const emailField = page.getByLabel('Email');
  try {
    await emailField.waitFor({ timeout: 45_000 });
  } catch {
    await page.reload();
    await emailField.waitFor({ timeout: 60_000 });
  }
  await emailField.fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByLabel('Password', { exact: true }).press('Enter');
  // Generous: the first sign-in after a server starts is slow on a loaded machine.
  await routeName(page).waitFor({ timeout: 60_000 });
  expect(await page.getByRole('button', { name: 'Login' }).count()).toBe(0);
}

/** Opens the user menu and chooses Logout; resolves once the login form is back. */
export async function signOut(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'User menu' }).click();
  await page.getByRole('menuitem', { name: 'Logout' }).click();
  await page.getByRole('button', { name: 'Login' }).waitFor({ timeout: 20_000 });
}
