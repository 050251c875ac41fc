// The web app as a browser gets it: the JavaScript it must fetch before the first page runs (the
// entry script and the modules index.html preloads, gzipped at the level of the server's
// precompressed .gz files), and the time to the first page usable in Chromium.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { chromium } from 'playwright-core';

export interface InitialJs {
  files: number;
  raw: number;
  gzip: number;
  /** The same files as the server sends them to a browser that accepts brotli. */
  brotli: number;
}

export function initialJs(dist: string): InitialJs {
  const html = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
  const urls = [...html.matchAll(/<(?:script[^>]*\bsrc|link[^>]*rel="modulepreload"[^>]*\bhref)="([^"]+\.js)"/g)].map(
    (m) => m[1]!,
  );
  const out: InitialJs = { files: 0, raw: 0, gzip: 0, brotli: 0 };
  for (const url of new Set(urls)) {
    const body = fs.readFileSync(path.join(dist, url));
    out.files++;
    out.raw += body.length;
    out.gzip += zlib.gzipSync(body, { level: 9 }).length;
    out.brotli += zlib.brotliCompressSync(body).length;
  }
  return out;
}

declare global {
  interface Window {
    __berthFirstPage?: number;
  }
}

/**
 * The page-side watch of firstPage, as source text (a function handed to Playwright would be
 * serialized with the helpers tsx adds to named functions, which the page does not have).
 */
function firstPageWatch(appName: string | null): string {
  const found =
    appName === null
      ? `document.querySelector('input[name="username"]') !== null`
      : `(document.body.textContent || '').includes(${JSON.stringify(appName)})`;
  return `{
    const watch = new MutationObserver(check);
    function check() {
      if (!(${found})) return;
      watch.disconnect();
      requestAnimationFrame(() => { window.__berthFirstPage = performance.now(); });
    }
    document.addEventListener('DOMContentLoaded', () => {
      watch.observe(document.body, { childList: true, subtree: true, characterData: true });
      check();
    });
  }`;
}

/**
 * Milliseconds from navigation start to the first page usable, each load in a fresh browser
 * context (empty cache, no service worker): the sign-in form's email field, and, signed in with
 * `cookie`, the dashboard showing the card of `appName`. Read in the page: a mutation observer
 * notes when the target is in the document and the time is taken at the next frame. (Waiting
 * from outside with a Playwright locator added ~350 ms of its own polling to what the page
 * showed, more than the page's whole network time.)
 */
export async function firstPage(
  url: string,
  cookie: string,
  appName: string,
  loads: number,
): Promise<{ login: number[]; dashboard: number[] }> {
  const browser = await chromium.launch({
    executablePath: process.env.BERTH_CHROMIUM ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--headless',
    ],
  });
  const out = { login: [] as number[], dashboard: [] as number[] };
  const host = new URL(url).hostname;
  const cookies = cookie
    .split('; ')
    .map((c) => ({ name: c.slice(0, c.indexOf('=')), value: c.slice(c.indexOf('=') + 1), domain: host, path: '/' }));
  try {
    for (let i = 0; i < loads; i++) {
      for (const signedIn of [false, true]) {
        const context = await browser.newContext({
          baseURL: url,
          viewport: { width: 1280, height: 900 },
          serviceWorkers: 'block',
        });
        if (signedIn) await context.addCookies(cookies);
        await context.addInitScript(firstPageWatch(signedIn ? appName : null));
        const page = await context.newPage();
        await page.goto('/', { waitUntil: 'commit' });
        const at = await page.waitForFunction(() => window.__berthFirstPage, null, { timeout: 30_000 });
        (signedIn ? out.dashboard : out.login).push((await at.jsonValue()) as number);
        await context.close();
      }
    }
  } finally {
    await browser.close();
  }
  return out;
}

if (process.argv[1] && import.meta.filename === path.resolve(process.argv[1])) {
  console.log(initialJs(process.argv[2] ?? path.resolve(import.meta.dirname, '../../web/dist')));
}
