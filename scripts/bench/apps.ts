// Benchmark of the apps server against the raw engine, run by `npm run bench` (scripts/bench.sh).
// Every figure is compared with the engine measured in the same run; nothing here asserts a time.
//   (the app list against the engine's list call is scripts/bench/list.ts)
//   [2] live stats on a private dockerd started for this bench (nothing else uses it), 50 apps,
//       10 dashboard viewers (each reads the apps' stats and the host header), windows of equal length: the engine idle without Berth (baseline),
//       then Berth with the engine stats source, then with the cgroup source. Per window: engine
//       CPU (dockerd + containerd + shims), Berth's CPU, the engine calls Berth made (counted on a
//       proxy socket), samples per second per viewer and whether every viewer got every sample;
//       with the cgroup source also pairs of short windows with Berth running and frozen
//   [3] server memory idle and while streaming
//   [4] history disk per app per day, measured by writing two days of 1 s readings
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { EngineLink, readSseBlocks, type EngineCall } from '../../server/test/apps-fixtures';
import type { Probe } from './server';
import { docker, forkBenchServer, mib, parallel, runBench, signInCookies, tally, Viewer } from './lib';
import { enginePct, fmtEngine, pairedWindows, pct, type EnginePct, type Paired } from './engine-cpu';
import { historyDiskPerApp } from './history-disk';
import { startPrivateEngine, type PrivateEngine } from './private-engine';
import { WireMeter, worstCaseTicks } from './wire';
import { FORMAT_MS, FORMAT_ROUNDS, FORMATS, measureFormats, type FormatRun } from './formats';

const STATS_N = Number(process.env.BENCH_STATS_APPS ?? 50);
const VIEWERS = Number(process.env.BENCH_VIEWERS ?? 10);
const WINDOW_MS = Number(process.env.BENCH_STATS_WINDOW_S ?? 20) * 1000;
/** Paired windows (Berth running, then stopped) and their length. */
const PAIRS = Number(process.env.BENCH_STATS_PAIRS ?? 10);
const PAIR_MS = 5000;
/** Which stats sources get a window (500 apps: `cgroup` only, 500 engine stats streams are another bench). */
const SOURCES = (process.env.BENCH_SOURCES ?? 'engine,cgroup').split(',') as Array<'engine' | 'cgroup'>;
const RUN = `berth-bench-${randomBytes(3).toString('hex')}`;
// Other benches may run on the shared engine at the same time: this run removes only its own containers.
const LABELS = ['--label', 'berth.bench=1', '--label', `berth.bench.run=${RUN}`];
const ADMIN = { username: 'bench@berth.local', password: randomBytes(12).toString('hex') };

const log = (msg: string) => console.log(`[bench] ${msg}`);
const range = (n: number) => Array.from({ length: n }, (_, i) => i);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
let server: ChildProcess | null = null;
const dataDirs: string[] = [];
const viewers: Viewer[] = [];
let engine: PrivateEngine | null = null;
let proxyClose: (() => Promise<void>) | null = null;
const streams: AbortController[] = [];

/** A dashboard's other stream, the host header (read and dropped); counts its updates. */
async function openHostStream(url: string, cookie: string): Promise<{ updates: number }> {
  const abort = new AbortController();
  streams.push(abort);
  const res = await fetch(`${url}/api/host/stream`, { headers: { cookie }, signal: abort.signal });
  if (res.status !== 200) throw new Error(`/api/host/stream: ${res.status} ${await res.text()}`);
  const out = { updates: 0 };
  void readSseBlocks(res.body!, (b) => void (b.event === 'update' && out.updates++)).catch(() => undefined);
  return out;
}

async function startServer(
  extraEnv: Record<string, string> = {},
): Promise<{ url: string; ask: (o?: { fanned?: boolean }) => Promise<Probe> }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'berth-bench-'));
  dataDirs.push(dataDir);
  const started = await forkBenchServer({
    DATA_DIR: dataDir,
    ADMIN_EMAIL: ADMIN.username,
    ADMIN_PASSWORD: ADMIN.password,
    DISABLE_AUTH: 'false',
    // All viewers sign in as one user: 10 viewers × 2 streams and the wire meter's reach its default cap.
    STREAMS_MAX_PER_USER: '64',
    ...extraEnv,
  });
  server = started.child;
  return started;
}

interface SourceRun {
  source: string;
  engine: EnginePct;
  berthCpu: number;
  /** Engine calls Berth made during the window, per call, per second. */
  callsPerSecond: Array<[string, number]>;
  /** Engine stats streams Berth opened since it started. */
  statsStreams: number;
  /** Every engine call Berth made from its start to the window's end, with counts. */
  sinceStart: Array<[string, number]>;
  /** Samples per second each viewer got (min and max over viewers). */
  perViewer: [number, number];
  fannedPerSecond: number;
  /** Samples the hub handed out in the window that some viewer did not get (summed over viewers). */
  missing: number;
  appsSampled: number;
  historyBytes: number;
  rss: number;
  /** The dashboard stream of one viewer, bytes per second on the wire and decoded. */
  wire: { raw: number; decoded: number; encoding: string };
  /** Cgroup source only: the engine with Berth running vs frozen, in pairs of short windows. */
  paired?: Paired;
  /** Cgroup source only: the dashboard stream's formats, in rounds of windows side by side. */
  formats?: FormatRun[];
}

/** One window with Berth on the private engine, through the counting proxy, with one stats source. */
async function measureSource(
  source: 'engine' | 'cgroup',
  names: string[],
  dockerHost: string,
  calls: EngineCall[],
): Promise<SourceRun> {
  const sinceStart = calls.length;
  // An unreadable cgroup root makes Berth fall back to the engine's stats API.
  const { url, ask } = await startServer({
    DOCKER_HOST: dockerHost,
    ...(source === 'engine' ? { CGROUP_ROOT: '/nonexistent-cgroup-root' } : {}),
  });
  const cookie = await signInCookies(url, ADMIN);
  // Each dashboard viewer reads the apps' stats and the host header, like the dashboard page.
  const mine: Viewer[] = [];
  const hosts: Array<{ updates: number }> = [];
  for (let i = 0; i < VIEWERS; i++) {
    mine.push(await Viewer.open(`${url}/api/apps/stats`, cookie));
    hosts.push(await openHostStream(url, cookie));
  }
  viewers.push(...mine);
  // One more viewer reads the stream as a browser asks for it, counting the bytes on the wire.
  const wire = await WireMeter.open(`${url}/api/apps/stats`, cookie);
  const deadline = Date.now() + 90_000;
  while (!mine.every((v) => names.every((n) => v.seen.has(n)))) {
    if (Date.now() > deadline) throw new Error(`viewers did not see every app within 90 s (${source} source)`);
    await sleep(250);
  }
  await sleep(2000); // past the start-up calls and first samples
  const p0 = await ask(); // also resets the server's CPU counter
  const t0 = Date.now();
  const cpu0 = engine!.cpu();
  await sleep(WINDOW_MS);
  const end = await ask();
  const cpu1 = engine!.cpu();
  const t1 = Date.now();
  // Samples taken inside the window may still be on their way to the viewers.
  await sleep(1500);
  const { fanned = [] } = await ask({ fanned: true });
  const hubTally = tally(fanned, t0, t1);
  let missing = 0;
  const perViewer = mine.map((v) => {
    const got = tally(v.received, t0, t1);
    for (const [app, n] of hubTally) missing += Math.max(0, n - (got.get(app) ?? 0));
    return [...got.values()].reduce((a, b) => a + b, 0) / ((t1 - t0) / 1000);
  });
  const byCall = new Map<string, number>();
  const all = new Map<string, number>();
  for (const c of calls.slice(sinceStart)) {
    if (c.at >= t0 && c.at < t1) byCall.set(c.call, (byCall.get(c.call) ?? 0) + 1);
    if (c.at < t1) all.set(c.call, (all.get(c.call) ?? 0) + 1);
  }
  const run: SourceRun = {
    source: end.source,
    engine: enginePct(cpu0, cpu1, t1 - t0),
    berthCpu: pct(end.cpuMicros / 1e6, end.at - p0.at),
    callsPerSecond: [...byCall]
      .map(([c, n]): [string, number] => [c, n / ((t1 - t0) / 1000)])
      .sort((a, b) => b[1] - a[1]),
    statsStreams: all.get('GET /containers/{id}/stats') ?? 0,
    sinceStart: [...all].sort((a, b) => b[1] - a[1]),
    perViewer: [Math.min(...perViewer), Math.max(...perViewer)],
    fannedPerSecond: [...hubTally.values()].reduce((a, b) => a + b, 0) / ((t1 - t0) / 1000),
    missing,
    appsSampled: hubTally.size,
    historyBytes: end.historyBytes,
    rss: end.rss,
    wire: { ...wire.rate(t0, t1), encoding: wire.encoding },
    ...(source === 'cgroup' && PAIRS > 0 ? { paired: await pairedWindows(server!, engine!, PAIRS, PAIR_MS) } : {}),
  };
  if (source === 'cgroup' && FORMAT_ROUNDS > 0) {
    for (const v of mine) v.close();
    wire.close();
    for (const a of streams.splice(0)) a.abort();
    log(`[2] dashboard stream formats: ${FORMAT_ROUNDS} rounds × ${FORMATS.length} formats × ${FORMAT_MS / 1000} s`);
    run.formats = await measureFormats(url, cookie, ask);
  }
  for (const v of mine) v.close();
  wire.close();
  for (const a of streams.splice(0)) a.abort();
  if (hosts.some((h) => h.updates === 0)) throw new Error(`a viewer got no host overview (${source} source)`);
  await stopServer();
  return run;
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
  const ids = (await docker(['ps', '-aq', '--filter', `label=berth.bench.run=${RUN}`])).split('\n').filter(Boolean);
  const batches = range(Math.ceil(ids.length / 50)).map((i) => ids.slice(i * 50, i * 50 + 50));
  await parallel(batches, 4, (batch) => docker(['rm', '-f', ...batch]));
  if (ids.length) log(`removed ${ids.length} bench containers`);
}

async function cleanup(): Promise<void> {
  for (const v of viewers) v.close();
  for (const a of streams) a.abort();
  await stopServer();
  await proxyClose?.();
  // Stopping the private engine takes its containers, data root and exec root with it.
  await engine?.stop();
  await removeBenchContainers();
  for (const dir of dataDirs) fs.rmSync(dir, { recursive: true, force: true });
}

const fmtCalls = (calls: Array<[string, number]>) =>
  calls.length ? calls.map(([c, n]) => `${c} ${n.toFixed(2)}/s`).join(', ') : 'none';

async function main(): Promise<void> {
  const started = Date.now();
  const image = process.env.BERTH_TEST_IMAGE;
  if (!image) throw new Error('BERTH_TEST_IMAGE is not set; run through `npm run bench`');
  const engineVersion = (await docker(['version', '--format', '{{.Server.Version}}'])).trim();

  const { url, ask } = await startServer();
  await signInCookies(url, ADMIN);
  await sleep(2000);
  const idle = await ask();
  await stopServer();

  log(`[2] private dockerd: starting it, pulling ${image}, running ${STATS_N} apps`);
  engine = await startPrivateEngine(RUN);
  const own = engine;
  await own.docker(['pull', '-q', image]);
  const names = range(STATS_N).map((i) => `${RUN}-s${i}`);
  await parallel(names, STATS_N > 100 ? 8 : 4, (name) =>
    own.docker(['run', '-d', '--name', name, '--network', 'none', ...LABELS, image, 'sleep', '100000']),
  );
  const proxySock = path.join(own.dir, 'berth.sock');
  const proxy = new EngineLink(proxySock, new URL(own.host).pathname);
  await proxy.up();
  proxyClose = () => proxy.down();
  await sleep(3000); // let the engine settle after the starts

  /** The engine's CPU over one window with Berth not running. */
  const baselineWindow = async (when: string) => {
    log(`[2] baseline ${when}: the private engine with ${STATS_N} apps and no Berth, ${WINDOW_MS / 1000} s`);
    const cpu0 = own.cpu();
    const t0 = Date.now();
    await sleep(WINDOW_MS);
    return enginePct(cpu0, own.cpu(), Date.now() - t0);
  };
  const before = await baselineWindow('before');
  const bySource: SourceRun[] = [];
  for (const source of SOURCES) {
    log(`[2] ${source} source: Berth, ${VIEWERS} dashboard viewers, ${WINDOW_MS / 1000} s`);
    bySource.push(await measureSource(source, names, `unix://${proxySock}`, proxy.calls));
  }
  await sleep(2000);
  const after = await baselineWindow('after');
  const baseline = (before.total + after.total) / 2;
  /** How far the idle engine moved between its two windows: differences this small are noise. */
  const spread = Math.abs(after.total - before.total);
  const helpers = own.helperProcesses();
  const privateVersion = (await own.docker(['version', '--format', '{{.Server.Version}}'])).trim();

  log('[4] history disk: writing two days of readings');
  const disk = historyDiskPerApp();

  const streaming = bySource.find((r) => r.source === 'cgroup') ?? bySource[bySource.length - 1]!;
  console.log('');
  console.log(
    `Berth benchmark — engine ${engineVersion}, ${os.cpus().length} CPUs, load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')} ` + `(other work on this machine skews the ratios), ${new Date().toISOString()}`,
  );
  console.log(
    `[2] private dockerd ${privateVersion} (no other client), ${STATS_N} apps running, ${VIEWERS} dashboard viewers, ${WINDOW_MS / 1000} s windows; ` +
      `CPU in % of one core; engine = dockerd + containerd + shims (${helpers} processes besides dockerd)`,
  );
  console.log(
    `[2] baseline (no Berth): engine ${baseline.toFixed(2)} % on average; before the Berth windows ${fmtEngine(before)}, after ${fmtEngine(after)}`,
  );
  for (const r of bySource) {
    const cost = r.engine.total - baseline;
    const noise = Math.abs(cost) <= spread ? `, within the baseline's own spread of ${spread.toFixed(2)}` : '';
    const target =
      r.source === 'cgroup'
        ? ` (targets: engine's cost ≤ 1 %: ${cost <= 1 ? 'OK' : 'OVER'}; Berth ≤ 3 %: ${r.berthCpu <= 3 ? 'OK' : 'OVER'})`
        : '';
    console.log(
      `[2] ${r.source} source: engine ${fmtEngine(r.engine)} → ${cost >= 0 ? '+' : ''}${cost.toFixed(2)} over the baseline ` +
        `(${(r.engine.total / (baseline || 0.01)).toFixed(1)}× it${noise}); Berth ${r.berthCpu.toFixed(2)} %${target}`,
    );
    console.log(
      `      samples: ${r.fannedPerSecond.toFixed(1)}/s from ${r.appsSampled} apps; each viewer got ${r.perViewer[0].toFixed(1)}–${r.perViewer[1].toFixed(1)}/s; ` +
        `every viewer got every sample: ${r.missing === 0 && r.appsSampled === STATS_N ? 'yes' : `NO (${r.missing} missing, ${r.appsSampled}/${STATS_N} apps sampled)`}`,
    );
    if (r.paired) {
      const p = r.paired;
      console.log(
        `      paired, ${PAIRS} × ${PAIR_MS / 1000} s each way in random order: engine with Berth running ${fmtEngine(p.running)}, ` +
          `frozen ${fmtEngine(p.stopped)} → Berth's cost to the engine ${p.mean >= 0 ? '+' : ''}${p.mean.toFixed(2)} ± ${p.stdErr.toFixed(2)} (standard error; ` +
          `target ≤ 1 %: ${p.mean <= 1 ? 'OK' : 'OVER'})`,
      );
    }
    const kb = (b: number) => `${(b / 1024).toFixed(1)} KB/s`;
    const perApp = (b: number) => (b / (r.appsSampled || 1)).toFixed(0);
    console.log(
      `      dashboard stream per viewer: ${kb(r.wire.raw)} on the wire (${r.wire.encoding}; ${perApp(r.wire.raw)} B per app per second), ` +
        `${kb(r.wire.decoded)} decoded (${perApp(r.wire.decoded)} B per app per second)`,
    );
    for (const f of r.formats ?? []) {
      const mean = f.cpu.reduce((a, b) => a + b, 0) / f.cpu.length;
      const tick = f.label.startsWith('tick')
        ? `; ${f.frames.toFixed(2)} frames/s; every viewer held ${f.fewestApps === STATS_N ? `all ${STATS_N}` : `only ${f.fewestApps}/${STATS_N}`} apps`
        : '';
      console.log(
        `      format ${f.label}: Berth ${mean.toFixed(2)} % (rounds: ${f.cpu.map((c) => c.toFixed(2)).join(', ')}); per viewer ${kb(f.raw)} on the wire (${f.encoding}), ${kb(f.decoded)} decoded${tick}`,
      );
    }
    const fellBack =
      r.source === 'cgroup' && r.statsStreams > 0
        ? ` (${r.statsStreams} containers were not found in the cgroup tree: the engine sampled them)`
        : '';
    console.log(
      `      engine calls by Berth in the window: ${fmtCalls(r.callsPerSecond)}; engine stats streams opened: ${r.statsStreams}${fellBack}`,
    );
    console.log(
      `      every engine call from Berth's start to the window's end: ${r.sinceStart.map(([c, n]) => `${c} ×${n}`).join(', ')}`,
    );
  }
  const worst = await worstCaseTicks(STATS_N);
  console.log(
    `[2] tick format if every one of ${STATS_N} apps changed CPU and memory every second (computed, no server): ` +
      `${(worst.raw / 1024).toFixed(1)} KB/s raw, ${(worst.gzip / 1024).toFixed(1)} KB/s gzip, ${(worst.br / 1024).toFixed(1)} KB/s brotli per viewer (target ≤ 10 KB/s); ` +
      `compressing costs ${worst.gzipCpu.toFixed(2)} % (gzip) or ${worst.brCpu.toFixed(2)} % (brotli) of a core per viewer`,
  );
  console.log(
    `[3] Server RSS: idle ${mib(idle.rss)}, while ${VIEWERS} viewers stream ${STATS_N} apps ` +
      `(${streaming.source} source) ${mib(streaming.rss)}`,
  );
  console.log(
    `[4] history disk per app: ${(disk.firstDay / 1024).toFixed(0)} KiB after the first day, +${(disk.nextDay / 1024).toFixed(0)} KiB each further day ` +
      `up to 7 days (1 s for 10 min, 10 s for 24 h, 1 min for 7 days; measured on 2 days of 1 s readings; plus one write-ahead log of up to ~4 MiB per file); ` +
      `the ${STATS_N}-app run's file: ${(streaming.historyBytes / 1024).toFixed(0)} KiB`,
  );
  log(`done in ${((Date.now() - started) / 1000).toFixed(0)} s`);
}

runBench(main, cleanup);
