// Footprint and speed of the real `npm start` process, measured from outside (/proc), run by
// `npm run bench` (scripts/bench.sh). Prints figures side by side; nothing here asserts a time.
//   [4] idle RSS after start, and RSS while 10 dashboard viewers stream
//   [5] start to ready (health answering and the UI served), median of 5 starts
//   ([6], the app list against the engine's, is scripts/bench/list.ts)
//   [7] initial JavaScript of the web app, gzipped, and the first page usable in Chromium
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { docker, median, mib, parallel, runBench, signInCookies, Viewer } from './lib';
import { ADMIN, rssOf, running, serverProcesses, startBerth, stopBerth } from './npm-start';
import { firstPage, initialJs } from './web';

const STARTS = 5;
const VIEWERS = Number(process.env.BENCH_VIEWERS ?? 10);
const VIEWED_APPS = 10;
const LABEL = 'berth.bench=1';
const RUN = `berth-bench-${randomBytes(3).toString('hex')}`;
const root = path.resolve(import.meta.dirname, '../..');

const log = (msg: string) => console.log(`[bench] ${msg}`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const range = (n: number) => Array.from({ length: n }, (_, i) => i);

async function removeBenchContainers(): Promise<void> {
  const ids = (await docker(['ps', '-aq', '--filter', `label=${LABEL}`])).split('\n').filter(Boolean);
  const batches = range(Math.ceil(ids.length / 50)).map((i) => ids.slice(i * 50, i * 50 + 50));
  await parallel(batches, 4, (batch) => docker(['rm', '-f', ...batch]));
  if (ids.length) log(`removed ${ids.length} bench containers`);
}

const kib = (n: number) => `${(n / 1024).toFixed(0)} KB`;

async function main(): Promise<void> {
  const image = process.env.BERTH_TEST_IMAGE;
  if (!image) throw new Error('BERTH_TEST_IMAGE is not set; run through `npm run bench`');
  // Bench containers left by an interrupted run count towards the list sizes; all go at the end.
  const lines: string[] = [];

  log('warm-up start (builds what is stale)');
  await stopBerth(await startBerth());

  log(`[5] ${STARTS} starts`);
  const readies: number[] = [];
  for (let i = 0; i < STARTS; i++) {
    const s = await startBerth();
    readies.push(s.readyMs);
    await stopBerth(s);
  }

  log('[4] memory');
  const s = await startBerth();
  // Idle: once the background checks have answered (health no longer `checking`), so the compose
  // CLI that detection runs is not counted as the server's; then 5 s.
  const settled = Date.now() + 60_000;
  while (
    Date.now() < settled &&
    ((await (await fetch(`${s.url}/api/health`)).json()) as { status: string }).status === 'checking'
  )
    await sleep(100);
  await sleep(5000);
  const procs = serverProcesses(s.npm.pid!);
  const sum = () => serverProcesses(s.npm.pid!).reduce((n, p) => n + p.rss, 0);
  const idle = sum();
  // And once V8 has had time to give back what start-up used (its memory reducer runs when idle).
  await sleep(25_000);
  const idleLater = sum();
  const npmRss = rssOf(s.npm.pid!);
  const cookie = await signInCookies(s.url, ADMIN);
  const names = range(VIEWED_APPS).map((i) => `${RUN}-s${i}`);
  await parallel(names, 4, (name) =>
    docker(['run', '-d', '--name', name, '--label', LABEL, '--label', 'berth.test=1', image, 'sleep', '100000']),
  );
  const viewers: Viewer[] = [];
  for (let i = 0; i < VIEWERS; i++) viewers.push(await Viewer.open(`${s.url}/api/apps/stats`, cookie));
  const deadline = Date.now() + 90_000;
  while (!viewers.every((v) => names.every((n) => (v.seen.get(n) ?? 0) >= 2))) {
    if (Date.now() > deadline) throw new Error('viewers did not see every app within 90 s');
    await sleep(250);
  }
  await sleep(10_000);
  const viewing = sum();
  for (const v of viewers) v.close();
  lines.push(
    `[4] RSS of the npm start server (${procs.length} process${procs.length === 1 ? '' : 'es'} below npm: ${procs.map((p) => path.basename(p.cmd.split(' ').find((a) => a.endsWith('.mjs') || a.endsWith('.ts')) ?? p.cmd)).join(', ')}): ` +
      `idle ${mib(idle)} 5 s after the background checks answered, ${mib(idleLater)} 30 s after | ${VIEWERS} dashboard viewers on ${VIEWED_APPS} running apps ${mib(viewing)} (npm itself: ${mib(npmRss)})`,
  );
  log('[7] first page in Chromium');
  const pages = await firstPage(s.url, cookie, names[0]!, STARTS);
  const ms = (xs: number[]) => `median ${median(xs).toFixed(0)} ms (${xs.map((x) => x.toFixed(0)).join(', ')})`;

  await stopBerth(s);
  lines.push(
    `[5] start to ready (health 200 and / served), npm start with builds up to date: median ${median(readies).toFixed(0)} ms of ${STARTS} (${readies.map((r) => r.toFixed(0)).join(', ')})`,
  );
  const js = initialJs(path.join(root, 'web', 'dist'));
  lines.push(
    `[7] initial JavaScript (entry + modulepreloads, ${js.files} files): ${kib(js.gzip)} gzip, ${kib(js.brotli)} brotli (served), ${kib(js.raw)} raw`,
  );
  lines.push(
    `[7] first page usable (navigation start to the content in the page, read in the page), fresh browser context each load: sign-in form ${ms(pages.login)}; signed in, dashboard with its app cards ${ms(pages.dashboard)}`,
  );

  console.log('');
  console.log(
    `Berth footprint — ${os.cpus().length} CPUs, load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}, ${new Date().toISOString()}`,
  );
  for (const l of lines) console.log(l);
}

async function cleanup(): Promise<void> {
  for (const s of [...running]) await stopBerth(s);
  await removeBenchContainers();
}

runBench(main, cleanup);
