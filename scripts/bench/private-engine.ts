// A throwaway dockerd for one benchmark, so nothing but the benchmark talks to it and its CPU is
// the benchmark's alone. Same pattern as launch_engine in scripts/test-env-remote.sh: its own
// socket, data root, exec root, containerd namespace and bridge, no iptables rules. Its
// containers land in the default cgroup parent (docker/<id>), where Berth's cgroup source looks.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { docker } from './lib';

export interface EngineCpu {
  dockerd: number;
  containerd: number;
  shims: number;
}

export interface PrivateEngine {
  /** unix://… of the engine itself. */
  host: string;
  dir: string;
  /** The docker CLI against this engine. */
  docker: (args: string[], timeoutMs?: number) => Promise<string>;
  /** CPU seconds used so far by dockerd, its containerd and every shim (each with its reaped children). */
  cpu: () => EngineCpu;
  /** How many containerd and shim processes are counted with dockerd. */
  helperProcesses: () => number;
  stop: () => Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** utime + stime + cutime + cstime of one process, in seconds (USER_HZ 100). */
export function cpuOfPid(pid: string | number): number {
  const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) / 100;
}

/** Pids of containerd and the shims that name this exec root on their command line. */
function containerdPids(execRoot: string): Array<{ pid: string; shim: boolean }> {
  const out: Array<{ pid: string; shim: boolean }> = [];
  for (const pid of fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      const cmd = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      const m = /^(?:\S*\/)?(containerd\S*)/.exec(cmd);
      if (m && cmd.includes(execRoot + '/')) out.push({ pid, shim: m[1]!.startsWith('containerd-shim') });
    } catch {
      // The process ended while the list was read.
    }
  }
  return out;
}

/** Unmounts what a dockerd left under `dirs` (netns, overlay, shm), deepest first. */
async function unmountUnder(dirs: string[]): Promise<void> {
  const mounts = fs
    .readFileSync('/proc/self/mountinfo', 'utf8')
    .split('\n')
    .map((l) => l.split(' ')[4]?.replace(/\\040/g, ' '))
    .filter((m): m is string => !!m && dirs.some((d) => m === d || m.startsWith(d + '/')))
    .sort()
    .reverse();
  for (const m of mounts) {
    await new Promise((r) => spawn('umount', ['-l', m], { stdio: 'ignore' }).on('close', r).on('error', r));
  }
}

const hasDocker0 = () => fs.existsSync('/sys/class/net/docker0');
function assertDocker0Kept(before: boolean): void {
  if (before && !hasDocker0())
    throw new Error("the host's docker0 interface existed before the private dockerd started and is gone now");
}

/**
 * Claims a bridge of its own, berthb<n> with 10.210.<n>.1/24 (`ip link add` fails when the name is
 * taken, so two benchmarks never share one). Never a disabled bridge: dockerd deletes the host's
 * docker0 at start when its bridge is disabled, breaking a system engine's default network.
 */
function claimBridge(): string {
  for (let n = 0; n < 100; n++) {
    const name = `berthb${n}`;
    if (fs.existsSync(`/sys/class/net/${name}`)) continue;
    try {
      execFileSync('ip', ['link', 'add', name, 'type', 'bridge'], { stdio: 'pipe' });
    } catch (err) {
      // Taken by a benchmark that started meanwhile: try the next name.
      if (fs.existsSync(`/sys/class/net/${name}`)) continue;
      throw new Error(`ip link add ${name} type bridge failed: ${(err as Error).message}`);
    }
    execFileSync('ip', ['addr', 'add', `10.210.${n}.1/24`, 'dev', name], { stdio: 'pipe' });
    execFileSync('ip', ['link', 'set', name, 'up'], { stdio: 'pipe' });
    return name;
  }
  throw new Error('no free berthb<n> bridge name (0-99) for the private dockerd');
}

function dropBridge(name: string): void {
  try {
    execFileSync('ip', ['link', 'del', name], { stdio: 'pipe' });
  } catch (err) {
    if (fs.existsSync(`/sys/class/net/${name}`)) throw err;
  }
}

/** `extraArgs`: more dockerd flags (a TLS listener for scripts/bench/envs.ts). */
export async function startPrivateEngine(tag: string, extraArgs: string[] = []): Promise<PrivateEngine> {
  const docker0Before = hasDocker0();
  // Under /tmp: containerd's sockets under the exec root must stay within 108 bytes.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bbe-'));
  const execRoot = path.join(dir, 'exec');
  const sock = path.join(dir, 'docker.sock');
  const host = `unix://${sock}`;
  fs.writeFileSync(path.join(dir, 'daemon.json'), '{}');
  const bridge = claimBridge();
  const args = [
    '--host',
    host,
    '--data-root',
    path.join(dir, 'data'),
    '--exec-root',
    execRoot,
    '--pidfile',
    path.join(dir, 'dockerd.pid'),
    '--config-file',
    path.join(dir, 'daemon.json'),
    '--containerd-namespace',
    tag,
    '--containerd-plugins-namespace',
    `${tag}-plugins`,
    '--bridge',
    bridge,
    '--iptables=false',
    '--ip-masq=false',
    '--ip-forward=false',
    '--shutdown-timeout',
    '2',
    ...(process.env.BERTH_TEST_STORAGE_DRIVER ? ['--storage-driver', process.env.BERTH_TEST_STORAGE_DRIVER] : []),
    ...extraArgs,
  ];
  const logFd = fs.openSync(path.join(dir, 'dockerd.log'), 'a');
  const child: ChildProcess = spawn('dockerd', args, { stdio: ['ignore', logFd, logFd], detached: true });
  fs.closeSync(logFd);
  const cli = (a: string[], timeoutMs?: number) => docker(['-H', host, ...a], timeoutMs);

  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    if (child.exitCode === null && child.pid) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      if ((await Promise.race([exited.then(() => true), sleep(20_000).then(() => false)])) === false) {
        child.kill('SIGKILL');
        await exited;
      }
    }
    // Containerd and shims of this exec root that outlived their dockerd (by pid: they are ours).
    for (const { pid } of containerdPids(execRoot)) {
      try {
        process.kill(Number(pid), 'SIGKILL');
      } catch {
        // Gone already.
      }
    }
    await unmountUnder([execRoot, path.join(dir, 'data')]);
    fs.rmSync(dir, { recursive: true, force: true });
    dropBridge(bridge);
    assertDocker0Kept(docker0Before);
  };

  try {
    const deadline = Date.now() + 60_000;
    for (;;) {
      if (child.exitCode !== null)
        throw new Error(`the private dockerd exited (${child.exitCode}); see ${dir}/dockerd.log`);
      if (
        fs.existsSync(sock) &&
        (await cli(['version', '--format', '{{.Server.Version}}'], 5000).then(
          () => true,
          () => false,
        ))
      )
        break;
      if (Date.now() > deadline) throw new Error('the private dockerd did not answer within 60 s');
      await sleep(250);
    }
    assertDocker0Kept(docker0Before);
  } catch (err) {
    const logTail = fs.existsSync(path.join(dir, 'dockerd.log'))
      ? fs.readFileSync(path.join(dir, 'dockerd.log'), 'utf8').split('\n').slice(-10).join('\n')
      : '';
    await stop();
    throw new Error(`${(err as Error).message}\n${logTail}`);
  }

  return {
    host,
    dir,
    docker: cli,
    cpu: () => {
      const out: EngineCpu = { dockerd: safeCpu(String(child.pid)), containerd: 0, shims: 0 };
      for (const { pid, shim } of containerdPids(execRoot)) out[shim ? 'shims' : 'containerd'] += safeCpu(pid);
      return out;
    },
    helperProcesses: () => containerdPids(execRoot).length,
    stop,
  };
}

const safeCpu = (pid: string) => {
  try {
    return cpuOfPid(pid);
  } catch {
    return 0;
  }
};
