// Benchmark of the apps server against the raw engine, run by `npm run bench` (scripts/bench.sh).
// Every figure is compared with the engine measured in the same run; nothing here asserts a time.
//   [1] GET /api/apps/ with many stopped containers vs. the engine's own list call (target ≤ 1.3×)
//   [2] engine stats streams open while dashboard viewers watch running apps (one per app, not per viewer)
//   [3] server memory idle and while those viewers stream; server and engine CPU while streaming
//   [4] side by side, the same apps and viewers: engine CPU (dockerd + containerd + shims) and Berth's
//       CPU with the engine stats source vs the cgroup source, and samples delivered per second
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
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

const log = (msg: string) => console.log(`[bench] ${msg}`);
const range = (n: number) => Array.from({ length: n }, (_, i) => i);

let server: ChildProcess | null = null;
let dataDir: string | null = null;
const viewers: Viewer[] = [];

async function startServer(extraEnv: Record<string, string> = {}): Promise<{ url: string; ask: () => Promise<Probe> }> {
  dataDir ??= fs.mkdtempSync(path.join(os.tmpdir(), 'berth-bench-'));
  const started = await forkBenchServer({ DATA_DIR: dataDir, ADMIN_EMAIL: ADMIN.username, ADMIN_PASSWORD: ADMIN.password, DISABLE_AUTH: 'false', ...extraEnv });
  server = started.child;
  return started;
}

/** The harness's folder: where its socket, dockerd.pid and exec root are. */
const harnessDir = () => path.dirname(new URL(process.env.DOCKER_HOST ?? 'unix:///var/run/docker.sock').pathname);

const cpuOfPid = (pid: string): number => {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
};

/** CPU seconds the harness's dockerd has used so far (null when it is not ours to read). */
function engineCpuSeconds(): number | null {
  try {
    return cpuOfPid(fs.readFileSync(path.join(harnessDir(), 'dockerd.pid'), 'utf8').trim());
  } catch (err) {
    log(`engine CPU not readable (${(err as Error).message}); skipping that figure`);
    return null;
  }
}

/** CPU seconds of the whole engine: dockerd plus its containerd and every shim (processes naming the harness's exec root). */
function engineStackCpuSeconds(): number | null {
  const dockerd = engineCpuSeconds();
  if (dockerd === null) return null;
  const execRoot = path.join(harnessDir(), 'exec') + '/';
  let total = dockerd;
  for (const pid of fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      const cmd = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      if (/^(\/usr\/bin\/)?containerd/.test(cmd) && cmd.includes(execRoot)) total += cpuOfPid(pid);
    } catch {
      // The process ended while the list was read: it used nothing more.
    }
  }
  return total;
}

/** Engine and Berth CPU, samples delivered, with one stats source: a fresh server, the viewers, one window. */
async function measureSource(source: 'engine' | 'cgroup', names: string[]) {
  // An unreadable cgroup root makes Berth fall back to the engine's stats API.
  const { url, ask } = await startServer(source === 'engine' ? { CGROUP_ROOT: '/nonexistent-cgroup-root' } : {});
  const cookie = await signInCookies(url, ADMIN);
  const mine: Viewer[] = [];
  for (let i = 0; i < VIEWERS; i++) mine.push(await Viewer.open(`${url}/api/apps/stats`, cookie));
  viewers.push(...mine);
  const deadline = Date.now() + 90_000;
  while (!mine.every((v) => names.every((n) => v.seen.has(n)))) {
    if (Date.now() > deadline) throw new Error(`viewers did not see every app within 90 s (${source} source)`);
    await new Promise((r) => setTimeout(r, 250));
  }
  const start = await ask();
  const engineBefore = engineStackCpuSeconds();
  const delivered = mine.reduce((n, v) => n + v.samples, 0);
  await new Promise((r) => setTimeout(r, STREAM_WINDOW_MS));
  const end = await ask();
  const engineAfter = engineStackCpuSeconds();
  const seconds = STREAM_WINDOW_MS / 1000;
  const result = {
    source: end.source,
    engineCpu: engineBefore !== null && engineAfter !== null ? ((engineAfter - engineBefore) / seconds) * 100 : null,
    berthCpu: (end.cpuMicros / 1000 / STREAM_WINDOW_MS) * 100,
    received: (end.samplesReceived - start.samplesReceived) / seconds,
    delivered: (mine.reduce((n, v) => n + v.samples, 0) - delivered) / seconds,
    historyBytes: end.historyBytes,
  };
  for (const v of mine) v.close();
  await stopServer();
  return result;
}

async function stopServer(): Promise<void> {
  if (!server || server.exitCode !== null) return;
  const child = server;
  child.send({ type: 'stop' });
  await new Promise((r) => {
    const t = setTimeout(() => {
      child.kill('SIGKILL');
      r(null);
    }, 5000);
    child.once('exit', () => {
      clearTimeout(t);
      r(null);
    });
  });
}

async function removeBenchContainers(): Promise<void> {
  const ids = (await docker(['ps', '-aq', '--filter', `label=${LABEL}`])).split('\n').filter(Boolean);
  const batches = range(Math.ceil(ids.length / 50)).map((i) => ids.slice(i * 50, i * 50 + 50));
  await parallel(batches, 4, (batch) => docker(['rm', '-f', ...batch]));
  if (ids.length) log(`removed ${ids.length} bench containers`);
}

async function cleanup(): Promise<void> {
  for (const v of viewers) v.close();
  await stopServer();
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
  // The history recorder keeps one stream per running app open with no viewer at all.
  while ((await ask()).openStreams > runningOnEngine && Date.now() - closeStart < 15_000) await new Promise((r) => setTimeout(r, 200));
  const afterClose = await ask();
  await stopServer();

  log('[4] engine source vs cgroup source, side by side');
  const bySource = [await measureSource('engine', names), await measureSource('cgroup', names)];

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
      `${afterClose.openStreams} open after the viewers left (the history recorder's, one per running app)`,
  );
  console.log(
    `[3] Server RSS: idle ${mib(idle.rss)}, after the list runs ${mib(afterList.rss)}, while streaming ${mib(streaming.rss)} ` +
      `(${((streaming.rss / idle.rss - 1) * 100).toFixed(0)} % over idle). CPU while streaming: Berth ${serverCpu.toFixed(1)} % of one core` +
      (engineCpu !== null ? `, dockerd ${engineCpu.toFixed(1)} % (the engine's own cost of the stats streams)` : ''),
  );
  for (const r of bySource) {
    console.log(
      `[4] ${r.source} source, ${STATS_N} apps, ${VIEWERS} viewers: engine (dockerd + containerd + shims) ` +
        `${r.engineCpu === null ? 'not readable' : `${r.engineCpu.toFixed(1)} % of one core`}, Berth ${r.berthCpu.toFixed(1)} % ` +
        `(target with cgroups: engine ≤ 1 %, Berth ≤ 3 %); ${r.received.toFixed(0)} samples/s in, viewers got ${r.delivered.toFixed(0)}/s ` +
        `(${((r.delivered / (r.received * VIEWERS || 1)) * 100).toFixed(0)} % of ${VIEWERS} × what came in); history file ${(r.historyBytes / 1024).toFixed(0)} KiB`,
    );
  }
  console.log(`[4] history disk: a full week is about 2.4 MB per app (1 s for 10 min, 10 s for 24 h, 1 min for 7 days; README)`);
  log(`done in ${((Date.now() - started) / 1000).toFixed(0)} s`);
}

runBench(main, cleanup);
