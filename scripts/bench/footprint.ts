// Footprint and speed of the real `npm start` process, measured from outside (/proc), run by
// `npm run bench` (scripts/bench.sh). Prints figures side by side; nothing here asserts a time.
//   [4] idle RSS after start, and RSS while 10 dashboard viewers stream
//   [5] start to ready (health answering and the UI served), median of 5 starts
//   ([6], the app list against the engine's, is scripts/bench/list.ts)
//   [7] initial JavaScript of the web app, gzipped
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { docker, median, mib, parallel, runBench, signInCookies, Viewer } from './lib';
import { initialJs } from './web';

const STARTS = 5;
const VIEWERS = Number(process.env.BENCH_VIEWERS ?? 10);
const VIEWED_APPS = 10;
const LABEL = 'berth.bench=1';
const RUN = `berth-bench-${randomBytes(3).toString('hex')}`;
const ADMIN = { username: 'bench@berth.local', password: randomBytes(12).toString('hex') };
const root = path.resolve(import.meta.dirname, '../..');

const log = (msg: string) => console.log(`[bench] ${msg}`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const range = (n: number) => Array.from({ length: n }, (_, i) => i);

interface Started {
  npm: ChildProcess;
  url: string;
  dataDir: string;
  readyMs: number;
}
const running = new Set<Started>();

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

/** Children of every process, from /proc. */
function childrenOf(): Map<number, number[]> {
  const kids = new Map<number, number[]>();
  for (const d of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const ppid = Number(fs.readFileSync(`/proc/${d}/stat`, 'utf8').split(') ')[1]!.split(' ')[1]);
      kids.set(ppid, [...(kids.get(ppid) ?? []), Number(d)]);
    } catch {
      // the process ended while we looked
    }
  }
  return kids;
}

function rssOf(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) * 1024 : 0;
}

function cmdline(pid: number): string {
  return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
}

/** What `npm start` left running below npm itself: the node processes and their RSS. */
function serverProcesses(npmPid: number): { pid: number; cmd: string; rss: number }[] {
  const kids = childrenOf();
  const out: { pid: number; cmd: string; rss: number }[] = [];
  const walk = (pid: number) => {
    for (const k of kids.get(pid) ?? []) {
      try {
        const cmd = cmdline(k);
        if (!/^(?:\/bin\/)?sh /.test(cmd)) out.push({ pid: k, cmd, rss: rssOf(k) });
      } catch {
        continue;
      }
      walk(k);
    }
  };
  walk(npmPid);
  return out;
}

async function startBerth(): Promise<Started> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'berth-bench-'));
  const port = await freePort();
  const t0 = performance.now();
  const npm = spawn('npm', ['start', '--silent'], {
    cwd: root,
    env: { ...process.env, DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: String(port), ADMIN_EMAIL: ADMIN.username, ADMIN_PASSWORD: ADMIN.password, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  const started: Started = { npm, url, dataDir, readyMs: 0 };
  running.add(started);
  const deadline = Date.now() + 120_000;
  const ok = async (p: string) => (await fetch(url + p).catch(() => null))?.ok === true;
  while (!((await ok('/api/health')) && (await ok('/')))) {
    if (npm.exitCode !== null) throw new Error(`npm start exited (${npm.exitCode})`);
    if (Date.now() > deadline) throw new Error('npm start was not ready within 120 s');
    await sleep(10);
  }
  started.readyMs = performance.now() - t0;
  return started;
}

async function stopBerth(s: Started): Promise<void> {
  running.delete(s);
  // The server's own SIGTERM handling, as a service manager would send it.
  for (const p of serverProcesses(s.npm.pid!)) process.kill(p.pid, 'SIGTERM');
  if (s.npm.exitCode === null) {
    await new Promise((r) => {
      const t = setTimeout(() => (s.npm.kill('SIGKILL'), r(null)), 15_000);
      s.npm.once('exit', () => (clearTimeout(t), r(null)));
    });
  }
  fs.rmSync(s.dataDir, { recursive: true, force: true });
}

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
  const procs = serverProcesses(s.npm.pid!);
  await sleep(5000);
  const sum = () => serverProcesses(s.npm.pid!).reduce((n, p) => n + p.rss, 0);
  const idle = sum();
  const npmRss = rssOf(s.npm.pid!);
  const cookie = await signInCookies(s.url, ADMIN);
  const names = range(VIEWED_APPS).map((i) => `${RUN}-s${i}`);
  await parallel(names, 4, (name) => docker(['run', '-d', '--name', name, '--label', LABEL, '--label', 'berth.test=1', image, 'sleep', '100000']));
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
      `idle ${mib(idle)} | ${VIEWERS} dashboard viewers on ${VIEWED_APPS} running apps ${mib(viewing)} (npm itself: ${mib(npmRss)})`,
  );

  await stopBerth(s);
  lines.push(`[5] start to ready (health 200 and / served), npm start with builds up to date: median ${median(readies).toFixed(0)} ms of ${STARTS} (${readies.map((r) => r.toFixed(0)).join(', ')})`);
  const js = initialJs(path.join(root, 'web', 'dist'));
  lines.push(`[7] initial JavaScript (entry + modulepreloads, ${js.files} files): ${kib(js.gzip)} gzip, ${kib(js.brotli)} brotli (served), ${kib(js.raw)} raw`);

  console.log('');
  console.log(`Berth footprint — ${os.cpus().length} CPUs, load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}, ${new Date().toISOString()}`);
  for (const l of lines) console.log(l);
}

async function cleanup(): Promise<void> {
  for (const s of [...running]) await stopBerth(s);
  await removeBenchContainers();
}

runBench(main, cleanup);
