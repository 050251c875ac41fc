// Opt-in memory soak (BENCH_SOAK_MINUTES=n npm run bench; the soak is 120 minutes): the
// real `npm start` process with a dashboard viewer (the stats stream) and a log viewer open on an
// app that logs a line a second. RSS is read from /proc every BENCH_SOAK_SAMPLE_S seconds (60);
// the slope is a least-squares fit over the samples after the first quarter (start-up settling).
// Prints figures only; nothing asserts.
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { docker, mib, runBench, signInCookies, slope, Viewer } from './lib';
import { ADMIN, running, serverProcesses, startBerth, stopBerth } from './npm-start';
import { startPrivateEngine, type PrivateEngine } from './private-engine';

const MINUTES = Number(process.env.BENCH_SOAK_MINUTES ?? 0);
const SAMPLE_S = Number(process.env.BENCH_SOAK_SAMPLE_S ?? 60);
// Not berth.bench=1: footprint.ts removes those at its end, which may run beside a soak.
const LABEL = 'berth.bench.soak=1';
const NAME = `berth-bench-soak-${randomBytes(3).toString('hex')}`;
const log = (msg: string) => console.log(`[bench] ${msg}`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
let engine: PrivateEngine | undefined;

async function main(): Promise<void> {
  const image = process.env.BERTH_TEST_IMAGE;
  if (!image) throw new Error('BERTH_TEST_IMAGE is not set; run through `npm run bench`');
  engine = await startPrivateEngine('berth-soak');
  await engine.docker(['pull', image], 120_000);
  // Berth (started below with this environment) and the docker CLI now talk to the private engine.
  process.env.DOCKER_HOST = engine.host;
  log(`soak: private dockerd at ${engine.host}`);
  const s = await startBerth();
  const cookie = await signInCookies(s.url, ADMIN);
  await docker([
    'run',
    '-d',
    '--name',
    NAME,
    '--network',
    'none',
    '--label',
    LABEL,
    image,
    'sh',
    '-c',
    'while true; do echo "soak line $(date +%s)"; sleep 1; done',
  ]);
  const dashboard = await Viewer.open(`${s.url}/api/apps/stats`, cookie);
  const logs = await fetch(`${s.url}/api/apps/${NAME}/logs`, { headers: { cookie } });
  if (logs.status !== 200) throw new Error(`log viewer: ${logs.status}`);
  let logBytes = 0;
  const reader = logs.body!.getReader();
  const reading = (async () => {
    for (let r = await reader.read(); !r.done; r = await reader.read()) logBytes += r.value.length;
  })().catch(() => undefined);

  const rss = () => serverProcesses(s.npm.pid!).reduce((n, p) => n + p.rss, 0);
  const t0 = Date.now();
  const samples: [number, number][] = [];
  log(`soak: ${MINUTES} min, RSS every ${SAMPLE_S} s`);
  while (Date.now() - t0 < MINUTES * 60_000) {
    const hours = (Date.now() - t0) / 3_600_000;
    const now = rss();
    // A server that died is a finding, not a sample of zero.
    if (now === 0 || s.npm.exitCode !== null)
      throw new Error(`the server process is gone after ${(hours * 60).toFixed(1)} min`);
    samples.push([hours, now]);
    log(
      `  ${(hours * 60).toFixed(1)} min: ${mib(samples.at(-1)![1])} (stats updates ${dashboard.samples}, log bytes ${logBytes})`,
    );
    await sleep(SAMPLE_S * 1000);
  }
  dashboard.close();
  await reader.cancel().catch(() => undefined);
  await reading;
  await stopBerth(s);
  await engine.stop();
  const settled = samples.slice(Math.floor(samples.length / 4));
  const perHour = slope(settled) / 1024 / 1024;
  console.log('');
  console.log(
    `Berth soak — ${os.cpus().length} CPUs, load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}, ${new Date().toISOString()}`,
  );
  console.log(
    `[8] RSS over ${MINUTES} min with a dashboard and a log viewer open: first ${mib(samples[0]![1])}, last ${mib(samples.at(-1)![1])}, ` +
      `max ${mib(Math.max(...samples.map(([, y]) => y)))}; slope after the first quarter ${perHour.toFixed(2)} MiB/h (${settled.length} samples)`,
  );
}

async function cleanup(): Promise<void> {
  for (const s of [...running]) await stopBerth(s);
  // Stopping the private engine takes the soak container with it.
  await engine?.stop().catch(() => undefined);
}

if (MINUTES > 0) runBench(main, cleanup);
