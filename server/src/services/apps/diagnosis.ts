import type { AppDiagnosis, ExitKind } from '@berth/contract';
import type { ContainerDetail, Engine } from '../../docker/engine';
import { openLogStream, readLogLines, type LogLine } from '../../docker/logs';
import { bareName } from '../../docker/names';

/** Log lines a diagnosis shows. */
export const DIAGNOSIS_LINES = 50;
/** A log that cannot be read in this time is left out of the diagnosis rather than holding it up. */
const LOG_TIMEOUT_MS = 10_000;
/** The engine writes FinishedAt after the last line; this slack keeps a line stamped in the same instant. */
const UNTIL_SLACK_NS = 1_000_000_000n;
/** The engine's "never" (FinishedAt of a container that never stopped). */
const ZERO_TIME = /^0001-01-01/;

/** What an exit code usually means, as a kind and one sentence. */
export function exitMeaning(code: number, oomKilled: boolean): { kind: ExitKind; summary: string } {
  if (oomKilled) return { kind: 'oom', summary: `Killed by the kernel: out of memory (exit code ${code}).` };
  if (code === 0) return { kind: 'done', summary: 'Done: the main process finished normally (exit code 0).' };
  if (code === 126)
    return {
      kind: 'command',
      summary: 'The command could not be run: not executable or not permitted (exit code 126).',
    };
  if (code === 127) return { kind: 'command', summary: 'The command was not found (exit code 127).' };
  if (code === 137)
    return {
      kind: 'killed',
      summary: 'Killed by SIGKILL (exit code 137): docker kill, a stop that timed out, or the host.',
    };
  if (code === 139) return { kind: 'segfault', summary: 'Crashed with a segmentation fault (SIGSEGV, exit code 139).' };
  if (code === 143)
    return { kind: 'terminated', summary: 'Terminated by SIGTERM (exit code 143), as docker stop asks.' };
  if (code > 128 && code < 160)
    return { kind: 'signal', summary: `Ended by signal ${code - 128} (exit code ${code}).` };
  return { kind: 'error', summary: `Error: the main process exited with code ${code}.` };
}

const time = (t: string | undefined) => (t && !ZERO_TIME.test(t) ? t : null);

/** Nanoseconds since the epoch of an RFC 3339 time with up to nine fractional digits. */
function nanosOf(t: string): bigint | null {
  const m = /^(.*T\d\d:\d\d:\d\d)(?:\.(\d{1,9}))?(.*)$/.exec(t);
  const ms = m ? Date.parse(`${m[1]}${m[3]}`) : NaN;
  if (!m || Number.isNaN(ms)) return null;
  return BigInt(ms) * 1_000_000n + BigInt((m[2] ?? '').padEnd(9, '0'));
}

/** The last lines of the log, up to `untilNanos` when given; a slow read keeps what came in time. */
async function lastLines(engine: Engine, info: ContainerDetail, untilNanos: bigint | null) {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), LOG_TIMEOUT_MS);
  const lines: LogLine[] = [];
  try {
    const stream = await openLogStream(engine, info.Id, {
      follow: false,
      timestamps: true,
      tail: DIAGNOSIS_LINES,
      ...(untilNanos !== null ? { untilNanos } : {}),
      signal: abort.signal,
    });
    for await (const l of readLogLines(stream, Boolean(info.Config.Tty))) lines.push(l);
  } catch (err) {
    if (!abort.signal.aborted) throw err;
  } finally {
    clearTimeout(timer);
  }
  // stdout and stderr come as separate frames; their timestamps give the order they were written in.
  lines.sort((a, b) => (a.nanos === null || b.nanos === null ? 0 : a.nanos < b.nanos ? -1 : a.nanos > b.nanos ? 1 : 0));
  return lines.slice(-DIAGNOSIS_LINES).map((l) => ({ ts: l.ts, text: l.text }));
}

/** What the container and its log say; why-stopped.ts adds what Berth kept around it. */
export type BaseDiagnosis = Omit<
  AppDiagnosis,
  'killedBy' | 'killedByText' | 'memory' | 'restartsLastHour' | 'events' | 'oneLine'
>;

/** Why an app stopped (or, while it never did, that it runs), from one inspect and one log read. */
export async function diagnose(engine: Engine, info: ContainerDetail): Promise<BaseDiagnosis> {
  const state = info.State as ContainerDetail['State'] & { Error?: string };
  const finishedAt = time(state.FinishedAt);
  const exited = finishedAt !== null || state.Status === 'exited' || state.Status === 'dead';
  const meaning =
    exited && typeof state.ExitCode === 'number'
      ? exitMeaning(state.ExitCode, Boolean(state.OOMKilled))
      : { kind: 'running' as const, summary: 'It has not stopped since it was created.' };
  const until = finishedAt ? nanosOf(finishedAt) : null;
  return {
    name: bareName(info.Name),
    status: state.Status,
    running: Boolean(state.Running),
    exitCode: exited ? (state.ExitCode ?? null) : null,
    ...meaning,
    oomKilled: Boolean(state.OOMKilled),
    restartCount: info.RestartCount ?? 0,
    startedAt: time(state.StartedAt),
    finishedAt,
    error: state.Error || null,
    lastLines: await lastLines(engine, info, until === null ? null : until + UNTIL_SLACK_NS),
  };
}
