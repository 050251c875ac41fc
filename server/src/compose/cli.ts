import { spawn } from 'node:child_process';

export interface ComposeCli {
  /** argv prefix, e.g. ['docker', 'compose'] or ['docker-compose'] */
  argv: string[];
  version: string;
}

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

/**
 * Runs a command with an argv array (never a shell), stdin closed, in its own process
 * group so a timeout kills the whole group.
 */
export function run(
  argv: string[],
  opts: {
    timeoutMs: number;
    env?: Readonly<Record<string, string>>;
    cwd?: string;
    onOutput?: (chunk: string) => void;
    maxOutput?: number;
    /**
     * Aborting (the server shutting down) sends the whole process group SIGTERM, then SIGKILL
     * after `graceMs`, so compose can stop cleanly and nothing outlives us.
     */
    signal?: AbortSignal;
    graceMs?: number;
  },
): Promise<RunResult> {
  const [cmd, ...args] = argv;
  if (!cmd) throw new Error('empty argv');
  const max = opts.maxOutput ?? 1024 * 1024;
  return new Promise((resolve) => {
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    let child;
    try {
      child = spawn(cmd, args, {
        shell: false,
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
        env: opts.env,
        cwd: opts.cwd,
      });
    } catch (err) {
      resolve({ code: 127, stdout: '', stderr: String((err as Error).message), timedOut: false });
      return;
    }
    const keep = (acc: string, s: string) => (acc.length + s.length > max ? (acc + s).slice(-max) : acc + s);
    child.stdout.setEncoding('utf8').on('data', (s: string) => {
      stdout = keep(stdout, s);
      opts.onOutput?.(s);
    });
    child.stderr.setEncoding('utf8').on('data', (s: string) => {
      stderr = keep(stderr, s);
      opts.onOutput?.(s);
    });
    const signalGroup = (signal: NodeJS.Signals) => {
      try {
        if (child.pid) process.kill(-child.pid, signal);
      } catch {
        child.kill(signal); // the group is already gone; make sure the leader is too
      }
    };
    const killGroup = () => signalGroup('SIGKILL');
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, opts.timeoutMs);
    let aborted = false;
    let grace: NodeJS.Timeout | undefined;
    const stopGroup = () => {
      aborted = true;
      signalGroup('SIGTERM');
      grace = setTimeout(killGroup, opts.graceMs ?? 10_000);
    };
    if (opts.signal?.aborted) stopGroup();
    else opts.signal?.addEventListener('abort', stopGroup, { once: true });
    const done = () => {
      clearTimeout(timer);
      clearTimeout(grace);
      opts.signal?.removeEventListener('abort', stopGroup);
      // The leader is gone; anything it started in its group must not outlive a stop.
      if (aborted && child.pid) {
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {
          // the group is empty: nothing was left behind
        }
      }
    };
    child.on('error', (err) => {
      done();
      resolve({ code: 127, stdout, stderr: stderr + String(err.message), timedOut });
    });
    child.on('close', (code) => {
      done();
      resolve({ code, stdout, stderr, timedOut });
    });
  });
}

/** How long one `version` probe of a compose CLI may take at start (a loaded host took 5-11 s). */
export const DEFAULT_PROBE_TIMEOUT_MS = 10_000;

/**
 * `docker compose` (v2) when present, else `docker-compose` (v1). `timedOut` tells a CLI that did
 * not answer in time (it may be there, on a slow host) from one that is absent or broken.
 */
export async function probeComposeCli(
  env: Readonly<Record<string, string>>,
  timeoutMs = DEFAULT_PROBE_TIMEOUT_MS,
): Promise<{ cli: ComposeCli | null; timedOut: boolean }> {
  let timedOut = false;
  for (const argv of [['docker', 'compose'], ['docker-compose']]) {
    const r = await run([...argv, 'version', '--short'], { timeoutMs, env });
    const version = r.stdout.trim().split('\n')[0];
    if (r.code === 0 && version) return { cli: { argv, version }, timedOut: false };
    timedOut ||= r.timedOut;
  }
  return { cli: null, timedOut };
}

/** `docker compose` (v2) when present, else `docker-compose` (v1); null when neither answers. */
export async function detectComposeCli(env: Readonly<Record<string, string>>): Promise<ComposeCli | null> {
  return (await probeComposeCli(env)).cli;
}
