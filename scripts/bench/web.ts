// The web app as a browser gets it: the JavaScript it must fetch before the first page runs (the
// entry script and the modules index.html preloads, gzipped at the level of the server's
// precompressed .gz files), and the time to the first page usable in Chromium.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { chromium, type Browser, type Page } from 'playwright-core';
import { forkBenchServer, median, runBench, signInCookies, type BenchServer } from './lib';
import type { PrivateEngine } from './private-engine';
import {
  addEnvironments,
  benchEngine,
  berthCall,
  countContainers,
  makeContainers,
  removeContainers,
} from './web-fixtures';

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
    __berthSeen?: Record<string, number>;
  }
}

/**
 * The page-side watch of when things first show, as source text (a function handed to Playwright
 * would be serialized with the helpers tsx adds to named functions, which the page does not
 * have): for each key, a JS expression that is true once it shows; a mutation observer notes the
 * time at the next frame in window.__berthSeen[key]. (Waiting from outside with a Playwright
 * locator added ~350 ms of its own polling to what the page showed.)
 */
export function watchScript(targets: Record<string, string>): string {
  const checks = Object.entries(targets)
    .map(
      ([key, found]) =>
        `if (!(${JSON.stringify(key)} in seen) && (${found})) { seen[${JSON.stringify(key)}] = -1; requestAnimationFrame(() => { seen[${JSON.stringify(key)}] = performance.now(); }); }`,
    )
    .join('\n');
  return `{
    const seen = (window.__berthSeen = {});
    const watch = new MutationObserver(check);
    function check() {
      ${checks}
      if (Object.keys(seen).length === ${Object.keys(targets).length}) watch.disconnect();
    }
    document.addEventListener('DOMContentLoaded', () => {
      watch.observe(document.body, { childList: true, subtree: true, characterData: true, attributes: true });
      check();
    });
  }`;
}

/** The watch of firstPage: the sign-in form's email field, or the text of `appName` (its card). */
function firstPageWatch(appName: string | null): string {
  const found =
    appName === null
      ? `document.querySelector('input[name="username"]') !== null`
      : `(document.body.textContent || '').includes(${JSON.stringify(appName)})`;
  return watchScript({ page: found });
}

/** Waits until the watch saw `key` (see watchScript) and returns its time (ms from navigation start). */
export async function seenAt(page: Page, key: string, timeout = 30_000): Promise<number> {
  // A function, not a string: the page's CSP forbids eval, which a string predicate needs.
  const at = await page.waitForFunction(
    (k) => {
      const v = window.__berthSeen?.[k];
      return v !== undefined && v > 0 ? v : false;
    },
    key,
    { timeout },
  );
  return (await at.jsonValue()) as number;
}

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--headless',
];

/** Playwright cookies of a Cookie header value (the signed-in session) for `url`'s host. */
export function browserCookies(url: string, cookie: string) {
  const host = new URL(url).hostname;
  return cookie
    .split('; ')
    .map((c) => ({ name: c.slice(0, c.indexOf('=')), value: c.slice(c.indexOf('=') + 1), domain: host, path: '/' }));
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
    args: CHROMIUM_ARGS,
  });
  const out = { login: [] as number[], dashboard: [] as number[] };
  const cookies = browserCookies(url, cookie);
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
        (signedIn ? out.dashboard : out.login).push(await seenAt(page, 'page'));
        await context.close();
      }
    }
  } finally {
    await browser.close();
  }
  return out;
}

// ── The web at scale (issue 40), run by `npm run bench` or `npx tsx scripts/bench/web.ts` ──
//   [8] the all-environments view with BENCH_WEB_ENVS (10) environments on one engine (the
//       private one, BENCH_WEB_ENV_RUNNING (50) running apps each): navigation to every
//       environment's section showing its apps
//   [9] the dashboard with BENCH_WEB_RUNNING (500) running apps: navigation to the first card and
//       to the first measured card; frame time while samples arrive, still and while scrolling
//   [10] the apps table with BENCH_WEB_CONTAINERS (5000) containers (the rest created stopped),
//       "All" rows per page: frame time while scrolling
// Each first-page figure is the median of BENCH_WEB_LOADS (5) loads in fresh browser contexts;
// frame windows are BENCH_WEB_WINDOW_MS (10000) long. Nothing here asserts a time.
const num = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const ENVS = num('BENCH_WEB_ENVS', 10);
const ENV_RUNNING = num('BENCH_WEB_ENV_RUNNING', 50);
const RUNNING = num('BENCH_WEB_RUNNING', 500);
const CONTAINERS = num('BENCH_WEB_CONTAINERS', 5000);
const LOADS = num('BENCH_WEB_LOADS', 5);
const WINDOW_MS = num('BENCH_WEB_WINDOW_MS', 10_000);
/** Pixels scrolled per frame in the scrolling windows (3,600 px/s at 60 frames/s: a brisk wheel). */
const SCROLL_STEP = 60;
const RUN = `berth-bench-web-${randomBytes(3).toString('hex')}`;
const ADMIN = { username: 'bench@berth.local', password: randomBytes(12).toString('hex') };
const log = (msg: string) => console.log(`[bench:web] ${msg}`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const state: { server?: BenchServer; engine?: PrivateEngine; browser?: Browser; dir?: string } = {};

/** rAF deltas over `ms`, scrolling the window by `step` px a frame (bouncing at the ends) when given. */
async function frameTimes(page: Page, ms: number, step = 0): Promise<number[]> {
  const deltas = (await page.evaluate(`new Promise((resolve) => {
    const deltas = []; const start = performance.now(); let last = start; let dir = 1;
    const tick = (now) => {
      deltas.push(now - last); last = now;
      if (${step} > 0) {
        const max = document.documentElement.scrollHeight - innerHeight;
        if (scrollY >= max - 1) dir = -1; else if (scrollY <= 0) dir = 1;
        scrollBy(0, dir * ${step});
      }
      if (now - start < ${ms}) requestAnimationFrame(tick); else resolve(deltas);
    };
    requestAnimationFrame(tick);
  })`)) as number[];
  return deltas.slice(1);
}

function frames(xs: number[]): string {
  const s = [...xs].sort((a, b) => a - b);
  const at = (q: number) => (s[Math.min(s.length - 1, Math.floor(s.length * q))] ?? NaN).toFixed(1);
  return `p95 ${at(0.95)} ms (median ${at(0.5)}, p99 ${at(0.99)}, ${s.filter((d) => d > 50).length} of ${s.length} frames over 50 ms)`;
}
const ms = (xs: number[]) => `median ${median(xs).toFixed(0)} ms (${xs.map((x) => x.toFixed(0)).join(', ')})`;

/** `LOADS` loads of `hash` in fresh contexts, each timed by watchScript(targets); the last page stays open when `keep`. */
async function loads(url: string, cookie: string, hash: string, targets: Record<string, string>, keep = false) {
  const out: Record<string, number[]> = Object.fromEntries(Object.keys(targets).map((k) => [k, []]));
  let kept: Page | null = null;
  for (let i = 0; i < LOADS; i++) {
    const context = await state.browser!.newContext({
      baseURL: url,
      viewport: { width: 1280, height: 900 },
      serviceWorkers: 'block',
    });
    await context.addCookies(browserCookies(url, cookie));
    await context.addInitScript(watchScript(targets));
    const page = await context.newPage();
    await page.goto(hash, { waitUntil: 'commit' });
    for (const key of Object.keys(targets)) out[key]!.push(await seenAt(page, key, 90_000));
    if (keep && i === LOADS - 1) kept = page;
    else await context.close();
  }
  return { times: out, page: kept };
}

async function scale(): Promise<void> {
  const root = path.resolve(import.meta.dirname, '../..');
  const image = process.env.BERTH_TEST_IMAGE;
  if (!image) throw new Error('BERTH_TEST_IMAGE is not set; run through `npm run bench`');
  if (!fs.existsSync(path.join(root, 'web', 'dist', 'index.html')))
    throw new Error('web/dist is not built: npm run build -w web');
  const load = () =>
    os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ');
  const lines: string[] = [];
  const figure = (line: string) => {
    lines.push(line);
    log(line);
  };
  state.dir = fs.mkdtempSync(path.join(os.tmpdir(), 'berth-bench-web-'));
  // Its own copy of the web app: a build running meanwhile empties web/dist (as in logs.ts).
  fs.cpSync(path.join(root, 'web', 'dist'), path.join(state.dir, 'web'), { recursive: true });
  log('starting a private dockerd');
  state.engine = await benchEngine(RUN, image);
  const labels = { 'berth.bench': '1', 'berth.bench.run': RUN };
  const made = { running: 0, all: 0 };
  /** Up to `to` running (or, stopped ones added, `to` in all) containers. */
  const make = async (to: number, run: boolean) => {
    const t0 = performance.now();
    const n = to - (run ? made.running : made.all);
    await makeContainers({ prefix: RUN, image, labels, from: made.all, to: made.all + n, run });
    made.all += n;
    if (run) made.running += n;
    log(
      `${run ? 'started' : 'created stopped'} ${n} containers in ${((performance.now() - t0) / 1000).toFixed(0)} s (load ${load()})`,
    );
  };
  state.server = await forkBenchServer({
    DATA_DIR: path.join(state.dir, 'data'),
    WEB_DIST: path.join(state.dir, 'web'),
    DOCKER_HOST: state.engine.host,
    ADMIN_EMAIL: ADMIN.username,
    ADMIN_PASSWORD: ADMIN.password,
    DISABLE_AUTH: 'false',
  });
  const { url } = state.server;
  const cookie = await signInCookies(url, ADMIN);
  state.browser = await chromium.launch({
    executablePath: process.env.BERTH_CHROMIUM ?? '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
  });

  await make(ENV_RUNNING, true);
  const envs = await addEnvironments(url, cookie, ENVS - 1, state.engine.host);
  await sleep(3000);
  const sections = `document.querySelectorAll('section[aria-label^="Environment "]')`;
  const all = await loads(url, cookie, '/', {
    all: `${sections}.length >= ${ENVS} && [...${sections}].every((s) => !(s.textContent || '').includes('Loading'))`,
  });
  figure(
    `[8] all-environments view, ${ENVS} environments × ${ENV_RUNNING} running apps (one engine): every section with its apps ${ms(all.times.all!)} (target ≤ 1500 ms; load ${load()})`,
  );
  for (const id of envs) await berthCall(url, cookie, 'DELETE', `/api/environments/${id}`);

  await make(CONTAINERS, false);
  await sleep(3000);
  const table = await loads(
    url,
    cookie,
    '/#/apps',
    { rows: `document.querySelector('table[aria-label="Applications"] tbody tr td') !== null` },
    true,
  );
  const apps = table.page!;
  await apps.getByRole('textbox', { name: 'Rows per page' }).click();
  const t0 = performance.now();
  await apps.getByRole('option', { name: 'All', exact: true }).click();
  await apps.getByText(new RegExp(`^1-${CONTAINERS} of ${CONTAINERS}$`)).waitFor({ timeout: 60_000 });
  const allShown = performance.now() - t0;
  await sleep(1000);
  const rowsInDom = await apps.locator('table[aria-label="Applications"] tbody tr').count();
  const scroll = await frameTimes(apps, WINDOW_MS, SCROLL_STEP);
  await apps.context().close();
  figure(
    `[10] apps table, ${await countContainers(false)} containers: first rows ${ms(table.times.rows!)}; "All" rows per page shown in ${allShown.toFixed(0)} ms (${rowsInDom} rows in the page); scrolling ${SCROLL_STEP} px a frame ${frames(scroll)} (target p95 < 50 ms; load ${load()})`,
  );

  // The dashboard is measured with only its running apps on the engine (as the target says).
  const stopped = made.all;
  await removeContainers(RUN, made.running, stopped);
  made.all = made.running;
  log(`removed the ${stopped - made.running} stopped containers (load ${load()})`);

  await make(RUNNING, true);
  await sleep(5000);
  const card = `document.querySelector('[data-testid="app-card"]')`;
  const dash = await loads(
    url,
    cookie,
    '/',
    {
      card: `${card} !== null`,
      measured: `document.querySelector('[data-testid="app-card"][data-measured="true"]') !== null`,
    },
    true,
  );
  const page = dash.page!;
  await page.locator('[data-testid="app-card"][data-measured="true"]').first().waitFor({ timeout: 60_000 });
  await sleep(3000);
  const still = await frameTimes(page, WINDOW_MS);
  const cardsInDom = await page.locator('[data-testid="app-card"]').count();
  const total = await page
    .getByTestId('app-card-count')
    .textContent()
    .catch(() => '?');
  const scrolling = await frameTimes(page, WINDOW_MS, SCROLL_STEP);
  await page.context().close();
  figure(
    `[9] dashboard, ${RUNNING} running apps (${total}; ${cardsInDom} cards in the page): first card ${ms(dash.times.card!)}, first measured card ${ms(dash.times.measured!)} (target ≤ 1500 ms); frame time while samples arrive ${frames(still)}; scrolling ${SCROLL_STEP} px a frame ${frames(scrolling)} (target p95 < 50 ms; load ${load()})`,
  );

  console.log('');
  console.log(
    `Berth web at scale — ${os.cpus().length} CPUs, load average ${load()}, ${new Date().toISOString()}, Chromium headless 1280×900`,
  );
  for (const l of lines) console.log(l);
}

async function cleanup(): Promise<void> {
  await state.browser?.close().catch(() => undefined);
  if (state.server) {
    state.server.child.kill();
    await new Promise((r) => (state.server!.child.exitCode !== null ? r(null) : state.server!.child.once('exit', r)));
  }
  await state.engine?.stop();
  if (state.dir) fs.rmSync(state.dir, { recursive: true, force: true });
}

if (process.argv[1] && import.meta.filename === path.resolve(process.argv[1])) runBench(scale, cleanup);
