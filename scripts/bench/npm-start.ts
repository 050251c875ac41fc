// The real `npm start` process, started and stopped from outside as a user would, and its memory
// read from /proc: shared by footprint.ts and soak.ts.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';

/** The first admin of every bench start (a fresh data folder each time). */
export const ADMIN = { username: 'bench@berth.local', password: randomBytes(12).toString('hex') };
const root = path.resolve(import.meta.dirname, '../..');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface Started {
  npm: ChildProcess;
  url: string;
  dataDir: string;
  readyMs: number;
}
/** Starts not stopped yet (a bench's cleanup stops them). */
export const running = new Set<Started>();
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

export function rssOf(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) * 1024 : 0;
}

function cmdline(pid: number): string {
  return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
}

/** What `npm start` left running below npm itself: the node processes and their RSS. */
export function serverProcesses(npmPid: number): { pid: number; cmd: string; rss: number }[] {
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

export async function startBerth(): Promise<Started> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'berth-bench-'));
  const port = await freePort();
  const t0 = performance.now();
  const npm = spawn('npm', ['start', '--silent'], {
    cwd: root,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      HOST: '127.0.0.1',
      PORT: String(port),
      ADMIN_EMAIL: ADMIN.username,
      ADMIN_PASSWORD: ADMIN.password,
      LOG_LEVEL: 'warn',
    },
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

export async function stopBerth(s: Started): Promise<void> {
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
