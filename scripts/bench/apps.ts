// Benchmark of the apps server against the raw engine, run by `npm run bench` (scripts/bench.sh).
// Every figure is compared with the engine measured in the same run; nothing here asserts a time.
//   [1] GET /api/apps/ with many stopped containers vs. the engine's own list call (target ≤ 1.3×)
//   [2] engine stats streams open while dashboard viewers watch running apps (one per app, not per viewer)
//   [3] server memory idle and while those viewers stream; server and engine CPU while streaming
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Probe } from './server';
import { docker, engineGet, forkBenchServer, median, mib, parallel, runBench, serverGet, signInCookies, timed, Viewer } from './lib';

const LIST_N = Number(process.env.BENCH_LIST_CONTAINERS ?? 500);
const STATS_N = Number(process.env.BENCH_STATS_APPS ?? 50);
const VIEWERS = Number(process.env.BENCH_VIEWERS ?? 10);
const ROUNDS = 15;
const STREAM_WINDOW_MS = 10_000;
const LABEL = 'berth.bench=1';
const RUN = `berth-bench-${randomBytes(3).toString('hex')}`;
const ADMIN = { username: 'bench@berth.local', password: randomBytes(12).toString('hex') };
const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');

const log = (msg: string) => console.log(`[bench] ${msg}`);
const range = (n: number) => Array.from({ length: n }, (_, i) => i);

let server: ChildProcess | null = null;
let dataDir: string | null = null;
const viewers: Viewer[] = [];

async function startServer(): Promise<{ url: string; ask: () => Promise<Probe> }> {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'berth-bench-'));
  const started = await forkBenchServer({ DATA_DIR: dataDir, ADMIN_EMAIL: ADMIN.username, ADMIN_PASSWORD: ADMIN.password, DISABLE_AUTH: 'false' });
  server = started.child;
  return started;
}

/** CPU seconds the harness's dockerd has used so far (null when it is not ours to read). */
function engineCpuSeconds(): number | null {
  try {
    const pid = fs.readFileSync(path.join(root, '.test-env', 'dockerd.pid'), 'utf8').trim();
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch (err) {
    log(`engine CPU not readable (${(err as Error).message}); skipping that figure`);
    return null;
  }
}

async function removeBenchContainers(): Promise<void> {
  const ids = (await docker(['ps', '-aq', '--filter', `label=${LABEL}`])).split('\n').filter(Boolean);
  const batches = range(Math.ceil(ids.length / 50)).map((i) => ids.slice(i * 50, i * 50 + 50));
  await parallel(batches, 4, (batch) => docker(['rm', '-f', ...batch]));
  if (ids.length) log(`removed ${ids.length} bench containers`);
}

async function cleanup(): Promise<void> {
  for (const v of viewers) v.close();
  if (server && server.exitCode === null) {
    server.send({ type: 'stop' });
    await new Promise((r) => {
      const t = setTimeout(() => {
        server?.kill('SIGKILL');
        r(null);
      }, 5000);
      server!.once('exit', () => {
        clearTimeout(t);
        r(null);
      });
    });
  }
  await removeBenchContainers();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
}

async function main(): Promise<void> {
  const started = Date.now();
  const image = process.env.BERTH_TEST_IMAGE;
  if (!image) throw new Error('BERTH_TEST_IMAGE is not set; run through `npm run bench`');
  await removeBenchContainers();
  const engineVersion = (await docker(['version', '--format', '{{.Server.Version}}'])).trim();

  log(`creating ${LIST_N} stopped containers (docker create)`);
  await parallel(range(LIST_N), 8, (i) => docker(['create', '--name', `${RUN}-c${i}`, '--label', LABEL, '--label', 'berth.test=1', image, 'true']));

  const { url, ask } = await startServer();
  const cookie = await signInCookies(url, ADMIN);
  await new Promise((r) => setTimeout(r, 2000));
  const idle = await ask();

  log('[1] timing the app list');
  // Warm both sides (the server's JIT, the engine's caches) before timing.
  for (let i = 0; i < 5; i++) {
    await engineGet('/containers/json?all=1');
    await serverGet(url, '/api/apps/', cookie);
  }
  const engineMs: number[] = [];
  const berthMs: number[] = [];
  let listed = 0;
  for (let i = 0; i < ROUNDS; i++) {
    engineMs.push(await timed(() => engineGet('/containers/json?all=1')));
    let body = '';
    // Both sides are timed up to the last byte received; parsing is left out of both.
    berthMs.push(await timed(async () => (body = await serverGet(url, '/api/apps/', cookie))));
    listed = (JSON.parse(body) as unknown[]).length;
  }
  const afterList = await ask();

  log(`[2] starting ${STATS_N} apps and ${VIEWERS} dashboard viewers`);
  const names = range(STATS_N).map((i) => `${RUN}-s${i}`);
  await parallel(names, 4, (name) => docker(['run', '-d', '--name', name, '--label', LABEL, '--label', 'berth.test=1', image, 'sleep', '100000']));
  for (let i = 0; i < VIEWERS; i++) viewers.push(await Viewer.open(`${url}/api/apps/stats`, cookie));
  const deadline = Date.now() + 90_000;
  while (!viewers.every((v) => names.every((n) => v.seen.has(n)))) {
    if (Date.now() > deadline) throw new Error('viewers did not see every app within 90 s');
    await new Promise((r) => setTimeout(r, 250));
  }
  const runningOnEngine = (await docker(['ps', '-q'])).split('\n').filter(Boolean).length;
  const windowStart = await ask(); // also resets the server's CPU counter
  const engineCpuBefore = engineCpuSeconds();
  const samplesBefore = viewers.reduce((n, v) => n + v.samples, 0);
  await new Promise((r) => setTimeout(r, STREAM_WINDOW_MS));
  const streaming = await ask();
  const engineCpuAfter = engineCpuSeconds();
  const samplesPerSecond = (viewers.reduce((n, v) => n + v.samples, 0) - samplesBefore) / (STREAM_WINDOW_MS / 1000);
  const fromEngine = (streaming.samplesReceived - windowStart.samplesReceived) / (STREAM_WINDOW_MS / 1000);
  for (const v of viewers.splice(0)) v.close();
  const closeStart = Date.now();
  while ((await ask()).openStreams > 0 && Date.now() - closeStart < 15_000) await new Promise((r) => setTimeout(r, 200));
  const afterClose = await ask();

  const ratio = median(berthMs) / median(engineMs);
  const serverCpu = (streaming.cpuMicros / 1000 / STREAM_WINDOW_MS) * 100;
  const engineCpu = engineCpuBefore !== null && engineCpuAfter !== null ? ((engineCpuAfter - engineCpuBefore) / (STREAM_WINDOW_MS / 1000)) * 100 : null;
  console.log('');
  console.log(
    `Berth benchmark — engine ${engineVersion}, ${os.cpus().length} CPUs, load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')} ` +
      `(other work on this machine skews the ratios), ${new Date().toISOString()}`,
  );
  console.log(
    `[1] GET /api/apps/ listing ${listed} containers: Berth ${median(berthMs).toFixed(1)} ms vs engine list ${median(engineMs).toFixed(1)} ms ` +
      `(medians of ${ROUNDS} interleaved runs; fastest ${Math.min(...berthMs).toFixed(1)} vs ${Math.min(...engineMs).toFixed(1)} ms) → ` +
      `${ratio.toFixed(2)}× the engine (target ≤ 1.3×) ${ratio <= 1.3 ? 'OK' : 'OVER TARGET'}`,
  );
  console.log(
    `[2] ${VIEWERS} dashboard viewers, ${STATS_N} bench apps running (${runningOnEngine} running on the engine): ` +
      `${streaming.openStreams} engine stats streams open (one per running container; without sharing it would be ${VIEWERS * runningOnEngine}) ` +
      `${streaming.openStreams <= runningOnEngine ? 'OK' : 'OVER TARGET'}; the engine sent ${fromEngine.toFixed(0)} samples/s, ` +
      `viewers got ${samplesPerSecond.toFixed(0)}/s (${((samplesPerSecond / (fromEngine * VIEWERS || 1)) * 100).toFixed(0)} % of ${VIEWERS} × what came in); ` +
      `${afterClose.openStreams} open after the viewers left`,
  );
  console.log(
    `[3] Server RSS: idle ${mib(idle.rss)}, after the list runs ${mib(afterList.rss)}, while streaming ${mib(streaming.rss)} ` +
      `(${((streaming.rss / idle.rss - 1) * 100).toFixed(0)} % over idle). CPU while streaming: Berth ${serverCpu.toFixed(1)} % of one core` +
      (engineCpu !== null ? `, dockerd ${engineCpu.toFixed(1)} % (the engine's own cost of the stats streams)` : ''),
  );
  log(`done in ${((Date.now() - started) / 1000).toFixed(0)} s`);
}

runBench(main, cleanup);
