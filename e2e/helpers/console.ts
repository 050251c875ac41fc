import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { launchBrowser } from './browser';
import { initialAdminPassword, startServer, type StartOptions, type TestServer } from './server';

export interface ConsoleRun {
  server: TestServer;
  browser: Browser;
  /** The admin password Berth generated on its first start. */
  password: string;
}

/**
 * Around one describe block: starts a fresh Berth (no ADMIN_PASSWORD, so it generates one) and a
 * browser, hands them over when ready, and stops both afterwards.
 */
export function withConsole(onReady: (run: ConsoleRun) => void, opts: StartOptions = {}): void {
  let run: Partial<ConsoleRun> = {};
  beforeAll(async () => {
    const server = await startServer(opts);
    run = { server, password: initialAdminPassword(server), browser: await launchBrowser() };
    onReady(run as ConsoleRun);
  });
  afterAll(async () => {
    await run.browser?.close();
    await run.server?.stop();
  });
}
