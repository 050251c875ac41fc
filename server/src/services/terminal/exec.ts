import { randomBytes } from 'node:crypto';
import { SHELLS, type ShellName } from '@berth/contract';
import type { Engine } from '../../docker/engine';
import { FrameDemuxer } from '../../docker/logs';

/** How long the shell probe may take before the container counts as having none. */
const PROBE_TIMEOUT_MS = 10_000;
/** Bytes of probe output kept (a handful of shell names). */
const PROBE_MAX_BYTES = 4096;

/*
 * Each name on its own line when an executable file of that name is on the PATH, which is how the
 * engine resolves the exec's command. Not `command -v` (busybox sh answers it with its applet name
 * when no such file exists) and not `<shell> -c 'exit 0'` (busybox sh runs its own applet for that
 * too): either offered an `ash` that the engine then could not start (exit 126).
 */
const PROBE_SCRIPT = `IFS=:; for s in ${SHELLS.join(' ')}; do for d in \${PATH:-/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin}; do if [ -f "$d/$s" ] && [ -x "$d/$s" ]; then echo "$s"; break; fi; done; done`;

/** The shells a running container has, in SHELLS order; none when it has no `sh` to ask with. */
export async function probeShells(engine: Engine, containerId: string): Promise<ShellName[]> {
  const id = await engine.execCreate(containerId, {
    Cmd: ['sh', '-c', PROBE_SCRIPT],
    AttachStdout: true,
    AttachStderr: false,
    Tty: false,
  });
  const stream = await engine.execStart(id, { tty: false });
  const demux = new FrameDemuxer();
  let out = '';
  const timer = setTimeout(() => destroy(stream), PROBE_TIMEOUT_MS);
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      for (const f of demux.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk))))
        if (f.stream === 1) out += f.payload.toString('utf8');
      if (out.length > PROBE_MAX_BYTES) break;
    }
  } finally {
    clearTimeout(timer);
    destroy(stream);
  }
  const found = new Set(out.split('\n').map((l) => l.trim()));
  return SHELLS.filter((s) => found.has(s));
}

export interface TtyExecSpec {
  cmd: string[];
  user?: string;
  cols: number;
  rows: number;
}

/** A process with a terminal in a container: its bytes both ways, resizing and its exit code. */
export interface TtyExec {
  id: string;
  stream: NodeJS.ReadWriteStream;
  resize(cols: number, rows: number): Promise<void>;
  /** Sends a signal to the process and everything it started (see SIGNAL_SCRIPT). */
  signal(signal: 'HUP' | 'KILL'): Promise<void>;
  /** The exit code once it ended; null while it runs or when the engine does not know. */
  exitCode(): Promise<number | null>;
  running(): Promise<boolean>;
}

/**
 * The engine detaches a client that sends its detach keys (default ctrl-p ctrl-q, which also
 * took ctrl-p from shells' history) and cannot be told to have none; this eight-byte sequence
 * of control codes is one no keyboard or paste sends by chance. The engine holds a byte that
 * could start the sequence until the next one arrives, so it starts with ctrl-^, which nobody types.
 */
const DETACH_KEYS = 'ctrl-^,ctrl-@,ctrl-],ctrl-@,ctrl-^,ctrl-_,ctrl-@,ctrl-]';

/** How long a first resize is retried: the engine starts the process only after answering the attach. */
const FIRST_RESIZE_WAIT_MS = 5_000;

/** How long an exec whose start failed is watched: the engine may start its process late, after Berth gave up. */
const ABANDONED_WATCH_MS = 60_000;
const ABANDONED_POLL_MS = 500;

/**
 * Creates an exec with a TTY, attaches to it and gives it its first size. A created exec is never
 * abandoned: when the attach or the first resize fails (a slow engine answers after the timeout),
 * its process is watched for a while and hung up as soon as it runs (see hangUpAbandoned); `onAbandoned`
 * gets that watch, to log what it found.
 */
export async function startTtyExec(
  engine: Engine,
  containerId: string,
  spec: TtyExecSpec,
  onAbandoned: (watch: Promise<AbandonedOutcome>) => void,
): Promise<TtyExec> {
  const mark = randomBytes(12).toString('hex');
  const id = await engine.execCreate(containerId, {
    Cmd: spec.cmd,
    Tty: true,
    AttachStdin: true,
    AttachStdout: true,
    AttachStderr: true,
    Env: ['TERM=xterm-256color', `${MARK_VARIABLE}=${mark}`],
    DetachKeys: DETACH_KEYS,
    ...(spec.user ? { User: spec.user } : {}),
  });
  const signal = (sig: 'HUP' | 'KILL') => signalMarked(engine, containerId, mark, sig);
  let stream: NodeJS.ReadWriteStream;
  try {
    stream = await engine.execStart(id, { tty: true, late: destroy });
  } catch (err) {
    onAbandoned(hangUpAbandoned(engine, id, signal));
    throw err;
  }
  const exec: TtyExec = {
    id,
    stream,
    resize: (cols, rows) => engine.execResize(id, { cols, rows }),
    signal,
    exitCode: async () => (await engine.execInspect(id)).ExitCode,
    running: async () => (await engine.execInspect(id)).Running,
  };
  try {
    await firstResize(exec, spec.cols, spec.rows);
  } catch (err) {
    destroy(stream);
    onAbandoned(hangUpAbandoned(engine, id, signal));
    throw err;
  }
  return exec;
}

/** What became of an exec whose start failed. */
export type AbandonedOutcome = 'never-ran' | 'ended' | 'hung-up' | 'still-running';

/**
 * Watches an exec whose start failed until its process has ended (or for ABANDONED_WATCH_MS when it
 * never starts): whenever the engine reports it running, it is hung up (HUP, then KILL). Never throws.
 */
async function hangUpAbandoned(
  engine: Engine,
  execId: string,
  signal: (sig: 'HUP' | 'KILL') => Promise<void>,
): Promise<AbandonedOutcome> {
  const deadline = Date.now() + ABANDONED_WATCH_MS;
  let signalled = 0;
  for (;;) {
    const state = await engine.execInspect(execId).catch(() => null);
    // Gone (the container went away with it) or ended: nothing is left to hang up.
    if (state === null || (!state.Running && state.ExitCode !== null)) return signalled ? 'hung-up' : 'ended';
    if (state.Running) {
      await signal(signalled === 0 ? 'HUP' : 'KILL').catch(() => undefined); // the next look tells whether it worked
      signalled += 1;
    }
    if (Date.now() >= deadline) return state.Running ? 'still-running' : 'never-ran';
    await new Promise((r) => setTimeout(r, ABANDONED_POLL_MS));
  }
}

async function firstResize(exec: TtyExec, cols: number, rows: number): Promise<void> {
  const deadline = Date.now() + FIRST_RESIZE_WAIT_MS;
  for (let delay = 20; ; delay = Math.min(delay * 2, 250)) {
    try {
      await exec.resize(cols, rows);
      return;
    } catch (err) {
      // Until the process runs the engine answers "not running"; the docker CLI retries the same way.
      if (Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, delay));
        continue;
      }
      // A command that already ended needs no size; its end reaches the caller through the stream.
      if (await exec.running()) throw err;
      return;
    }
  }
}

/**
 * The engine cannot signal an exec, and with a TTY it keeps the process's input open when the
 * client goes, so a shell left behind would run forever. Each session's process carries a
 * random mark in its environment (inherited by its children); this script, run as root in the
 * container, signals every process that has it. Needs sh, tr and grep (a container without a
 * shell cannot have its left-behind process ended; the caller logs that).
 */
const MARK_VARIABLE = 'BERTH_TERMINAL_SESSION';
const SIGNAL_SCRIPT = `for d in /proc/[0-9]*; do
  if tr '\\000' '\\n' < "$d/environ" 2>/dev/null | grep -qx "${MARK_VARIABLE}=$1"; then kill -"$2" "\${d#/proc/}" 2>/dev/null; fi
done; true`;

async function signalMarked(engine: Engine, containerId: string, mark: string, signal: 'HUP' | 'KILL'): Promise<void> {
  const id = await engine.execCreate(containerId, {
    Cmd: ['sh', '-c', SIGNAL_SCRIPT, 'berth-signal', mark, signal],
    User: '0',
    AttachStdout: true,
    AttachStderr: true,
    Tty: false,
  });
  const stream = await engine.execStart(id, { tty: false, late: destroy });
  const timer = setTimeout(() => destroy(stream), PROBE_TIMEOUT_MS);
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) void chunk; // drained only to know when it ends
  } catch (err) {
    // The engine may close the connection of a finished exec without a clean end: the script ran.
    if ((err as NodeJS.ErrnoException).code !== 'ERR_STREAM_PREMATURE_CLOSE') throw err;
  } finally {
    clearTimeout(timer);
    destroy(stream);
  }
}

function destroy(stream: NodeJS.ReadWriteStream): void {
  (stream as unknown as { destroy?: () => void }).destroy?.();
}

/**
 * Runs `cmd` to its end in a running container (as root, no terminal): its exit code and the
 * first 4 KiB of its output. Past `timeoutMs` the connection is dropped and the code is what the
 * engine knows (null while it still runs).
 */
export async function execCollect(
  engine: Engine,
  containerId: string,
  cmd: string[],
  timeoutMs: number,
): Promise<{ code: number | null; output: string }> {
  const exec = await engine.execCreate(containerId, { Cmd: cmd, User: '0', AttachStdout: true, AttachStderr: true });
  const stream = await engine.execStart(exec, { tty: false });
  const demux = new FrameDemuxer();
  let output = '';
  const timer = setTimeout(() => destroy(stream), timeoutMs);
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>)
      for (const f of demux.push(chunk)) if (output.length < 4096) output += f.payload.toString('utf8');
  } catch (err) {
    // The engine may close a finished exec's connection without a clean end; its exit code says how it went.
    if ((err as NodeJS.ErrnoException).code !== 'ERR_STREAM_PREMATURE_CLOSE') throw err;
  } finally {
    clearTimeout(timer);
  }
  return { code: (await engine.execInspect(exec)).ExitCode, output };
}
