import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
let axeSource: string | undefined;

/** Console errors and warnings, page errors and failed API answers of one page, from now on. */
export class ConsoleWatch {
  readonly messages: string[] = [];
  readonly failedApi: string[] = [];

  constructor(page: Page) {
    page.on('console', (msg) => {
      // The browser's own network-change notice (the test machine's interfaces come and go) is not the page's doing.
      if (msg.text().includes('net::ERR_NETWORK_CHANGED')) return;
      // The tests block the service worker on purpose (helpers/browser.ts); the app says so, rightly.
      if (msg.text().includes('Service Worker registration blocked by Playwright')) return;
      if (msg.type() === 'error' || msg.type() === 'warning')
        this.messages.push(`${msg.type()}: ${msg.text()} (${msg.location().url})`);
    });
    page.on('pageerror', (err) => this.messages.push(`page error: ${err.message}`));
    page.on('response', (res) => {
      if (res.status() >= 400 && new URL(res.url()).pathname.startsWith('/api/'))
        this.failedApi.push(`${res.status()} ${res.request().method()} ${new URL(res.url()).pathname}`);
    });
  }

  /** Everything seen so far, then forget it (so each page is judged on its own). */
  take(): { messages: string[]; failedApi: string[] } {
    const out = { messages: this.messages.splice(0), failedApi: this.failedApi.splice(0) };
    return out;
  }
}

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  targets: string[];
}

/**
 * Rules left out, each with the issue item that owns the fix. Keep this list short and narrow.
 */
export const AXE_EXCLUDED: { rule: string; target: RegExp; why: string }[] = [];

/** Runs axe-core in the page and returns the serious and critical violations (minus AXE_EXCLUDED). */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  // Evaluated rather than added as a script tag: the page's CSP (script-src 'self') refuses inline scripts.
  axeSource ??= fs.readFileSync(AXE, 'utf8');
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  const found = await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: {
          run: (
            ctx: Document,
            opts: object,
          ) => Promise<{
            violations: { id: string; impact: string | null; help: string; nodes: { target: string[] }[] }[];
          }>;
        };
      }
    ).axe;
    const res = await axe.run(document, { resultTypes: ['violations'] });
    return res.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      targets: v.nodes.map((n) => n.target.join(' ')),
    }));
  });
  return found
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({
      ...v,
      targets: v.targets.filter((t) => !AXE_EXCLUDED.some((x) => x.rule === v.id && x.target.test(t))),
    }))
    .filter((v) => v.targets.length > 0);
}
