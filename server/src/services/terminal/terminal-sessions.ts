import type { FastifyBaseLogger } from 'fastify';
import pLimit from 'p-limit';
import { exitReason, TERMINAL_CLOSE, TerminalControl } from '@berth/contract';
import type { TtyExec } from './exec';
import { AppError, TooManyRequestsError } from '../../errors';
import { revokedReason } from '../../lib/live-streams';

/** The part of a WebSocket (ws) a terminal session uses. */
export interface TerminalSocket {
  readonly bufferedAmount: number;
  send(data: Buffer, opts: { binary: boolean }, cb?: (err?: Error) => void): void;
  close(code: number, reason: string): void;
  pause(): void;
  resume(): void;
  on(event: 'message', listener: (data: Buffer | ArrayBuffer | Buffer[], isBinary: boolean) => void): unknown;
  on(event: 'close', listener: () => void): unknown;
}

export interface SessionInfo {
  user: string;
  environment: string;
  target: string;
  /** Aborted (with a reason) when the user loses the right to this terminal: it is hung up as on idle. */
  revoked: AbortSignal;
}

/** Output waiting in the socket beyond this pauses the process's output (a slow client). */
const HIGH_WATER = 1024 * 1024;
/** How long a hung-up process may take to end before Berth stops waiting for it. */
const HANGUP_WAIT_MS = 5_000;
/** How long after its output ends the engine may still call a process running. */
const EXIT_WAIT_MS = 3_000;
/** Terminals being started at once (create, attach, first resize); more wait their turn. */
const CONCURRENT_STARTS = 4;
/** WebSocket close reasons are at most 123 bytes. */
const MAX_REASON = 120;

/**
 * Every open terminal (all environments): a per-user cap, an idle timeout and one log line per
 * session with user, target and duration (never what was typed or shown).
 */
export class TerminalSessions {
  private readonly perUser = new Map<number, number>();
  private readonly starts = pLimit(CONCURRENT_STARTS);

  constructor(
    private readonly log: FastifyBaseLogger,
    private readonly limits: { maxPerUser: number; idleMs: number },
  ) {}

  /** Takes one of the user's session slots (429 when none is left); the answer gives it back, once. */
  reserve(userId: number): () => void {
    const used = this.perUser.get(userId) ?? 0;
    if (used >= this.limits.maxPerUser) {
      throw new TooManyRequestsError(
        `You already have ${used} terminals open (the limit is ${this.limits.maxPerUser}); close one first.`,
        5,
      );
    }
    this.perUser.set(userId, used + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.perUser.get(userId) ?? 1) - 1;
      if (left > 0) this.perUser.set(userId, left);
      else this.perUser.delete(userId);
    };
  }

  /** Open sessions of a user (for tests and diagnostics). */
  count(userId: number): number {
    return this.perUser.get(userId) ?? 0;
  }

  /** Connects a socket to a process started by `start` until either ends; never throws. */
  async run(
    socket: TerminalSocket,
    start: () => Promise<TtyExec>,
    info: SessionInfo,
    release: () => void,
  ): Promise<void> {
    const started = Date.now();
    let clientGone = false;
    socket.on('close', () => {
      clientGone = true;
    });
    // What the client sends while the process starts waits for it (a user types at once).
    const early: Message[] = [];
    let onMessage: (m: Message) => void = (m) => early.push(m);
    socket.on('message', (data, isBinary) => onMessage({ data, isBinary }));
    let exec: TtyExec | null;
    try {
      // Starts queue (all users, all environments): fifty at once would each wait on a loaded engine past its timeout.
      exec = await this.starts(() => (clientGone ? null : start()));
    } catch (err) {
      release();
      const detail = err instanceof AppError ? err.message : 'The Docker engine could not start the command.';
      this.log.warn(
        { err, user: info.user, environment: info.environment, app: info.target, waitedMs: Date.now() - started },
        'terminal could not start',
      );
      socket.close(TERMINAL_CLOSE.engine, truncate(detail));
      return;
    }
    if (exec === null) {
      release(); // the client left while its start was queued: nothing was created
      return;
    }
    if (clientGone || info.revoked.aborted) {
      await this.hangUp(exec);
      release();
      if (!clientGone) socket.close(TERMINAL_CLOSE.revoked, truncate(revokedReason(info.revoked)));
      return;
    }
    this.log.info({ user: info.user, environment: info.environment, app: info.target }, 'terminal session opened');
    const outcome = await this.bridge(socket, exec, info.revoked, (listener) => {
      onMessage = listener;
      for (const m of early.splice(0)) listener(m);
    });
    release();
    this.log.info(
      {
        user: info.user,
        environment: info.environment,
        app: info.target,
        durationMs: Date.now() - started,
        end: outcome.end,
        exitCode: outcome.exitCode,
      },
      'terminal session ended',
    );
  }

  private bridge(
    socket: TerminalSocket,
    exec: TtyExec,
    revoked: AbortSignal,
    listen: (listener: (m: Message) => void) => void,
  ): Promise<{ end: SessionEnd; exitCode: number | null }> {
    const { stream } = exec;
    return new Promise((resolve) => {
      let done = false;
      let idle: NodeJS.Timeout | undefined;
      const armIdle = () => {
        clearTimeout(idle);
        idle = setTimeout(() => void finish('idle'), this.limits.idleMs);
      };
      const finish = async (end: SessionEnd) => {
        if (done) return;
        done = true;
        clearTimeout(idle);
        if (end !== 'exit') await this.hangUp(exec);
        const exitCode = await this.exitCode(exec);
        if (end === 'exit') socket.close(TERMINAL_CLOSE.exited, exitReason(exitCode));
        else if (end === 'idle')
          socket.close(TERMINAL_CLOSE.idle, `Closed after ${idleText(this.limits.idleMs)} without input.`);
        else if (end === 'lost') socket.close(TERMINAL_CLOSE.engine, 'The connection to the Docker engine was lost.');
        else if (end === 'revoked') socket.close(TERMINAL_CLOSE.revoked, truncate(revokedReason(revoked)));
        resolve({ end, exitCode });
      };
      // Hung up at once, whatever is typed: input resets only the idle timeout, never a revoked right.
      revoked.addEventListener('abort', () => void finish('revoked'), { once: true });

      stream.on('data', (chunk: Buffer) => {
        socket.send(chunk, { binary: true }, () => {
          if (stream.isPaused() && socket.bufferedAmount < HIGH_WATER / 4) stream.resume();
        });
        if (socket.bufferedAmount > HIGH_WATER) stream.pause();
      });
      stream.on('end', () => void finish('exit'));
      stream.on('close', () => void finish('exit'));
      stream.on('error', () => void finish('lost'));

      listen(({ data, isBinary }) => {
        if (done) return;
        armIdle();
        const bytes = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as ArrayBuffer);
        if (isBinary) {
          if (!stream.write(bytes)) {
            socket.pause();
            stream.once('drain', () => socket.resume());
          }
          return;
        }
        this.control(exec, bytes);
      });
      socket.on('close', () => void finish('client'));
      armIdle();
    });
  }

  /** A text frame: a control message; anything else is ignored. */
  private control(exec: TtyExec, bytes: Buffer): void {
    let parsed: unknown;
    try {
      parsed = JSON.parse(bytes.toString('utf8'));
    } catch {
      return; // not JSON: no control message, nothing to do
    }
    const msg = TerminalControl.safeParse(parsed);
    if (!msg.success) return;
    exec
      .resize(msg.data.cols, msg.data.rows)
      .catch((err: unknown) => this.log.debug({ err }, 'terminal resize failed'));
  }

  /** Ends the process when the user left: SIGHUP as closing a terminal window does, then SIGKILL. */
  private async hangUp(exec: TtyExec): Promise<void> {
    for (const signal of ['HUP', 'KILL'] as const) {
      try {
        await exec.signal(signal);
      } catch (err) {
        this.log.warn({ err, exec: exec.id }, 'could not signal a terminal process');
        break;
      }
      if (!(await this.runningAfter(exec, HANGUP_WAIT_MS))) break;
    }
    (exec.stream as unknown as { destroy?: () => void }).destroy?.();
  }

  private async exitCode(exec: TtyExec): Promise<number | null> {
    if (await this.runningAfter(exec, EXIT_WAIT_MS))
      this.log.warn({ exec: exec.id }, 'terminal process still running after its session ended');
    return exec.exitCode().catch(() => null);
  }

  /** Waits up to `ms` for the process to end; whether it still runs then. */
  private async runningAfter(exec: TtyExec, ms: number): Promise<boolean> {
    const deadline = Date.now() + ms;
    for (let delay = 20; ; delay = Math.min(delay * 2, 250)) {
      const running = await exec.running().catch(() => false);
      if (!running || Date.now() >= deadline) return running;
      await new Promise((r) => setTimeout(r, delay));
    }
  }
}

interface Message {
  data: Buffer | ArrayBuffer | Buffer[];
  isBinary: boolean;
}

/**
 * What ended a session: the process, the user leaving (or Berth stopping), the idle timeout, the
 * engine connection, or the user losing the right to it (demoted, disabled, deleted, signed out, key revoked).
 */
type SessionEnd = 'exit' | 'client' | 'idle' | 'lost' | 'revoked';

const idleText = (ms: number) => (ms >= 60_000 ? `${Math.round(ms / 60_000)} min` : `${Math.round(ms / 1000)} s`);

function truncate(reason: string): string {
  const bytes = Buffer.from(reason, 'utf8');
  return bytes.length <= MAX_REASON ? reason : `${bytes.subarray(0, MAX_REASON - 3).toString('utf8')}...`;
}
