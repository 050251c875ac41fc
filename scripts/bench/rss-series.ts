// RSS as running apps grow (issue 40), run by `npm run bench` (skip with BENCH_SKIP_RSS=1): the
// real bundle (server/dist/main.mjs, rebuilt first) with the start script's flags and allocator
// settings, started as the e2e journeys start it, on a dockerd of the bench's own, stats history
// on. One server sees its running apps grow: BENCH_RSS_APPS (default 10,50,200); at each step,
// after BENCH_RSS_SETTLE_S (60) seconds, the median of its RSS over 20 s; at 50 apps also with
// BENCH_VIEWERS (10) dashboard viewers. Prints the figures and the per-app slope (least squares
// over the steps without viewers). Nothing asserts.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startServer, type TestServer } from '../../e2e/helpers/server';
import { median, mib, parallel, runBench, signInCookies, slope, Viewer } from './lib';
import { serverProcesses } from './npm-start';
import { startPrivateEngine, type PrivateEngine } from './private-engine';

const STEPS = (process.env.BENCH_RSS_APPS ?? '10,50,200').split(',').map(Number);
const SETTLE_MS = Number(process.env.BENCH_RSS_SETTLE_S ?? 60) * 1000;
const VIEWERS = Number(process.env.BENCH_VIEWERS ?? 10);
const VIEWED_AT = 50;
const SAMPLE_MS = 20_000;
const IDLE_COMMAND = ['sh', '-c', 'trap "exit 0" TERM; sleep 100000 & wait'];
const ADMIN = { username: 'bench@berth.local', password: randomBytes(12).toString('hex') };
const root = path.resolve(import.meta.dirname, '../..');

const log = (msg: string) => console.log(`[bench] ${msg}`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
let engine: PrivateEngine | undefined;
let server: TestServer | undefined;
const viewers: Viewer[] = [];

/** The server's RSS (the node process below the e2e child guard), median of readings every 2 s over 20 s. */
async function rss(s: TestServer): Promise<number> {
  const readings: number[] = [];
  for (let t = 0; t < SAMPLE_MS; t += 2000) {
    const procs = serverProcesses(s.guardPid);
    if (!procs.length) throw new Error('the server process is gone');
    readings.push(procs.reduce((n, p) => n + p.rss, 0));
    await sleep(2000);
  }
  return median(readings);
}

/** Runs idle containers on the private engine until `n` run. */
async function grow(image: string, from: number, n: number): Promise<void> {
  const names = Array.from({ length: n - from }, (_, i) => `berth-rss-${from + i}`);
  await parallel(names, 4, (name) =>
    engine!.docker([
      'run',
      '-d',
      '--name',
      name,
      '--network',
      'none',
      '--label',
      'berth.bench=1',
      image,
      ...IDLE_COMMAND,
    ]),
  );
}

async function main(): Promise<void> {
  const image = process.env.BERTH_TEST_IMAGE;
  if (!image) throw new Error('BERTH_TEST_IMAGE is not set; run through `npm run bench`');
  log('rss series: building the server bundle');
  execFileSync(process.execPath, [path.join(root, 'scripts', 'build-server.mjs')], { cwd: root, stdio: 'inherit' });
  if (!fs.existsSync(path.join(root, 'web', 'dist', 'index.html')))
    execFileSync('npm', ['run', 'build', '-w', 'web'], { cwd: root, stdio: 'inherit' });
  engine = await startPrivateEngine('berth-rss');
  await engine.docker(['pull', image], 120_000);
  server = await startServer({
    dockerHost: engine.host,
    env: {
      ADMIN_EMAIL: ADMIN.username,
      ADMIN_PASSWORD: ADMIN.password,
      STATS_HISTORY: 'true',
      STREAMS_MAX_PER_USER: '64',
    },
    startTimeoutMs: 120_000,
  });
  const cookie = await signInCookies(server.baseUrl, ADMIN);
  const rows: string[] = [];
  const points: [number, number][] = [];
  let running = 0;
  for (const n of STEPS) {
    log(`rss series: ${n} running apps`);
    await grow(image, running, n);
    running = n;
    await sleep(SETTLE_MS);
    const r = await rss(server);
    points.push([n, r]);
    rows.push(`${n} apps ${mib(r)}`);
    if (n === VIEWED_AT && VIEWERS > 0) {
      for (let i = 0; i < VIEWERS; i++) viewers.push(await Viewer.open(`${server.baseUrl}/api/apps/stats`, cookie));
      const deadline = Date.now() + 90_000;
      while (!viewers.every((v) => v.seen.size >= n)) {
        if (Date.now() > deadline) throw new Error(`viewers did not see all ${n} apps within 90 s`);
        await sleep(250);
      }
      await sleep(SETTLE_MS / 2);
      rows.push(`${n} apps + ${VIEWERS} viewers ${mib(await rss(server))}`);
      for (const v of viewers.splice(0)) v.close();
    }
  }
  const perApp = slope(points) / 1024 / 1024;
  console.log('');
  console.log(
    `Berth RSS series — ${os.cpus().length} CPUs, load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}, ${new Date().toISOString()}`,
  );
  console.log(
    `[9] RSS of the bundle with the start flags, stats history on, private dockerd, ${SETTLE_MS / 1000} s settle + median over 20 s per step: ` +
      `${rows.join(' | ')}; slope ${(perApp * 1024).toFixed(0)} KiB per running app (${points.map(([x]) => x).join('/')})`,
  );
}

async function cleanup(): Promise<void> {
  for (const v of viewers) v.close();
  await server?.stop();
  // Stopping the private engine takes its containers with it.
  await engine?.stop().catch(() => undefined);
}

runBench(main, cleanup);
