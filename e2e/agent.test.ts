import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Browser } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { expectRouteName, newPage, signIn } from './helpers/browser';
import { withConsole } from './helpers/console';
import { REPO_ROOT, type TestServer } from './helpers/server';

const env = process.env;
const EMAIL = 'admin@berth.local';

/** The docker CLI against the engine the agent serves (the harness's second dockerd, through its own socket). */
const engineCli = (args: string[]) =>
  spawnSync(env.BERTH_TEST_DOCKER_CLI || 'docker', ['--host', env.BERTH_TEST_REMOTE_SOCKET!, ...args], {
    encoding: 'utf8',
    timeout: 60_000,
  });

describe.skipIf(!env.BERTH_TEST_REMOTE_SOCKET)('agent environment', () => {
  let server: TestServer;
  let browser: Browser;
  let password: string;
  withConsole((run) => ({ server, browser, password } = run));
  const app = `berth-t-e2e-agent-${randomBytes(4).toString('hex')}`;
  const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'berth-e2e-agent-'));
  let agent: ChildProcess | null = null;
  afterAll(() => {
    agent?.kill('SIGKILL');
    engineCli(['rm', '-f', app]);
    fs.rmSync(stateDir, { recursive: true, force: true });
  });

  it('adds an agent environment, runs the shown command, sees it turn green with its apps', async () => {
    const run = engineCli([
      'run',
      '-d',
      '--name',
      app,
      '--label',
      'berth.test=1',
      env.BERTH_TEST_IMAGE!,
      'sleep',
      '3600',
    ]);
    expect(run.status, run.stderr).toBe(0);
    const { page } = await newPage(browser, server.baseUrl);
    await signIn(page, EMAIL, password, { path: '/#/settings/environments' });
    await expectRouteName(page, 'Environments');

    await page.getByRole('button', { name: 'Add agent' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add an agent environment' });
    await dialog.getByLabel('Name').fill('Behind NAT');
    await dialog.getByRole('button', { name: 'Create token' }).click();
    const command = await dialog.getByRole('textbox', { name: 'docker run' }).inputValue();
    await dialog.getByRole('button', { name: 'Copy docker run' }).click();
    // The agent is started with what the shown command sets (here from the same bundle, not the image).
    const berthUrl = /BERTH_URL=(\S+)/.exec(command)![1]!;
    const token = /BERTH_AGENT_TOKEN=(\S+)/.exec(command)![1]!;
    expect(berthUrl).toBe(server.baseUrl);
    await dialog.getByRole('button', { name: 'Done' }).click();
    const table = page.getByRole('table', { name: 'Environments' });
    const row = table.getByRole('row').filter({ hasText: 'Behind NAT' });
    await row.getByRole('img', { name: /Unreachable: No agent has enrolled/ }).waitFor();

    agent = spawn(process.execPath, [path.join(REPO_ROOT, 'server/dist/agent-main.mjs')], {
      env: {
        PATH: env.PATH,
        BERTH_URL: berthUrl,
        BERTH_AGENT_TOKEN: token,
        BERTH_AGENT_STATE: stateDir,
        DOCKER_HOST: env.BERTH_TEST_REMOTE_SOCKET,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    agent.stdout!.on('data', (c: Buffer) => (out += c.toString()));
    agent.stderr!.on('data', (c: Buffer) => (out += c.toString()));
    // The list polls (every 3 s while an agent is awaited): it turns green by itself.
    await row
      .getByRole('img', { name: /^Reachable/ })
      .waitFor({ timeout: 30_000 })
      .catch((err: Error) => {
        throw new Error(`${err.message}\nagent output:\n${out}`);
      });

    await page.getByRole('button', { name: 'Environment: Local' }).click();
    await page.getByRole('menuitem', { name: 'Behind NAT' }).click();
    await page.getByRole('link', { name: 'Applications' }).first().click();
    await expectRouteName(page, 'View Applications');
    expect(new URL(page.url()).hash).toBe('#/e/behind-nat/apps');
    await page.getByRole('table', { name: 'Applications' }).getByText(app).waitFor({ timeout: 30_000 });
  });
});
