// Benchmark of the log view, run by `npm run bench` (scripts/bench.sh). Figures are printed, not asserted.
//   [1] lines per second delivered into the log view of Chromium while a container floods its log
//   [2] the page's frame-time p95 while following (requestAnimationFrame deltas)
//   [3] server CPU per 10,000 lines delivered
//   [4] server memory while a large log (BENCH_LOG_DOWNLOAD_MIB, default 256) downloads
// Targets (issue 15): ≥ 20,000 lines/s, frame p95 < 50 ms.
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import type { Probe } from './server';
import { docker, forkBenchServer, runBench, signInCookies } from './lib';

const WINDOW_MS = Number(process.env.BENCH_LOG_WINDOW_MS ?? 10_000);
const LABEL = 'berth.bench=1';
const DOWNLOAD_MIB = Number(process.env.BENCH_LOG_DOWNLOAD_MIB ?? 256);
const NAME = `berth-bench-logs-${randomBytes(3).toString('hex')}`;
const BIG = `${NAME}-big`;
const ADMIN = { username: 'bench@berth.local', password: randomBytes(12).toString('hex') };
const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const log = (msg: string) => console.log(`[bench:logs] ${msg}`);

let server: ChildProcess | null = null;
let browser: Browser | null = null;
let dataDir: string | null = null;

async function startServer(): Promise<{ url: string; probe: () => Promise<Probe> }> {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'berth-bench-logs-'));
  const started = await forkBenchServer({ DATA_DIR: dataDir, WEB_DIST: path.join(root, 'web', 'dist'), ADMIN_EMAIL: ADMIN.username, ADMIN_PASSWORD: ADMIN.password, DISABLE_AUTH: 'false' });
  server = started.child;
  return { url: started.url, probe: started.ask };
}

async function main(): Promise<void> {
  if (!fs.existsSync(path.join(root, 'web', 'dist', 'index.html'))) throw new Error('web/dist is not built: npm run build -w web');
  const { url, probe } = await startServer();
  const cookie = await signInCookies(url, ADMIN);
  // As fast as the engine takes it: numbered lines from seq, held to one core.
  await docker(['run', '-d', '--name', NAME, '--label', LABEL, '--cpus', '1', process.env.BERTH_TEST_IMAGE!, 'sh', '-c', "seq 1 1000000000 | sed 's/^/flood line /'"]);
  browser = await chromium.launch({ executablePath: process.env.BERTH_CHROMIUM ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--headless'] });
  const context = await browser.newContext({ baseURL: url, viewport: { width: 1280, height: 900 } });
  const host = new URL(url).hostname;
  await context.addCookies(cookie.split('; ').map((c) => ({ name: c.slice(0, c.indexOf('=')), value: c.slice(c.indexOf('=') + 1), domain: host, path: '/' })));
  const page = await context.newPage();
  await page.goto(`/#/apps/${NAME}/logs`);
  await page
    .locator('[data-log-line]')
    .first()
    .waitFor({ timeout: 30_000 })
    .catch(async (err: Error) => {
      throw new Error(`${err.message}\npage: ${(await page.locator('body').innerText()).slice(0, 500)}`);
    });
  const total = () => page.locator('[data-total-lines]').getAttribute('data-total-lines').then(Number);
  // Let the backlog settle, then measure one window.
  await page.waitForTimeout(2000);
  // The newest line's number: how far the container got (its own rate bounds what can be delivered).
  const newest = async () => Number(/flood line (\d+)/.exec((await page.locator('[data-log-line]').last().textContent()) ?? '')?.[1] ?? NaN);
  const before = await total();
  const firstNumber = await newest();
  await probe();
  // A string, not a function: tsx's helpers (__name) do not exist in the page.
  const frames = (await page.evaluate(`new Promise((resolve) => {
    const deltas = [];
    const start = performance.now();
    let last = start;
    const tick = (now) => {
      deltas.push(now - last);
      last = now;
      if (now - start < ${WINDOW_MS}) requestAnimationFrame(tick);
      else resolve(deltas);
    };
    requestAnimationFrame(tick);
  })`)) as number[];
  const cpu = await probe();
  const lines = (await total()) - before;
  const produced = (await newest()) - firstNumber;
  const sorted = frames.slice(1).sort((a, b) => a - b);
  const p95 = sorted[Math.floor(sorted.length * 0.95)] ?? NaN;
  const perSecond = lines / (WINDOW_MS / 1000);
  log(`[1] lines delivered into the view: ${Math.round(perSecond)} lines/s over ${WINDOW_MS / 1000} s (target ≥ 20000); the container got ${Math.round(produced / (WINDOW_MS / 1000))} lines/s further meanwhile`);
  log(`[2] frame time while following: p95 ${p95.toFixed(1)} ms, median ${sorted[Math.floor(sorted.length / 2)]?.toFixed(1)} ms over ${sorted.length} frames (target p95 < 50 ms)`);
  log(`[3] server CPU: ${lines ? ((cpu.cpuMicros / 1e6 / lines) * 10_000).toFixed(3) : 'n/a'} s per 10k lines (${(cpu.cpuMicros / 1e6).toFixed(2)} s for ${lines} lines); server RSS ${Math.round(cpu.rss / 1048576)} MiB`);
  await context.close();
  await docker(['rm', '-f', NAME]);
  await downloadMemory(url, cookie, probe);
}

/** [4] A container writes DOWNLOAD_MIB of log lines; the server's RSS is sampled while the download streams. */
async function downloadMemory(url: string, cookie: string, probe: () => Promise<Probe>): Promise<void> {
  const lines = Math.round((DOWNLOAD_MIB * 1048576) / 100);
  // 99 characters and a newline per line.
  await docker(['run', '-d', '--name', BIG, '--label', LABEL, process.env.BERTH_TEST_IMAGE!, 'sh', '-c', `seq -w 1 ${lines} | sed 's/$/ ${'x'.repeat(90)}/'; sleep 3600`]);
  const last = `${String(lines)} ${'x'.repeat(90)}`;
  const deadline = Date.now() + 600_000;
  while ((await docker(['logs', '--tail', '1', BIG])).trim() !== last) {
    if (Date.now() > deadline) throw new Error('the big log was not written within 10 minutes');
    await new Promise((r) => setTimeout(r, 1000));
  }
  const idle = await probe();
  const res = await fetch(`${url}/api/apps/${BIG}/logs/download`, { headers: { cookie } });
  if (!res.ok || !res.body) throw new Error(`download failed: ${res.status}`);
  let bytes = 0;
  let peak = idle.rss;
  let lastProbe = Date.now();
  const started = Date.now();
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    bytes += chunk.length;
    if (Date.now() - lastProbe > 250) {
      lastProbe = Date.now();
      peak = Math.max(peak, (await probe()).rss);
    }
  }
  const secs = (Date.now() - started) / 1000;
  log(
    `[4] download of ${(bytes / 1048576).toFixed(0)} MiB in ${secs.toFixed(1)} s (${(bytes / 1048576 / secs).toFixed(0)} MiB/s): server RSS ${Math.round(idle.rss / 1048576)} MiB before, peak ${Math.round(peak / 1048576)} MiB during`,
  );
}

async function cleanup(): Promise<void> {
  await browser?.close().catch((err: unknown) => log(`closing the browser: ${String(err)}`));
  await docker(['rm', '-f', NAME, BIG]).catch((err: unknown) => log(`removing the bench containers: ${String(err)}`));
  server?.kill();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
}

runBench(main, cleanup);
