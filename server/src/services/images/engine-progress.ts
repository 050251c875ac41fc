import type { PullProgress } from '@berth/contract';
import type { ByteStream } from '../../docker/engine';
import { AppError, DockerUnavailableError, EngineError } from '../../errors';

/** One JSON line of the engine's progress (pull, push, build, load). */
export interface EngineProgressLine {
  id?: string;
  status?: string;
  progress?: string;
  progressDetail?: { current?: number; total?: number };
  /** Build output text. */
  stream?: string;
  /** Build: `{ID}` of the image made; push: `{Tag, Digest, Size}`. */
  aux?: { ID?: string; Tag?: string; Digest?: string };
  error?: string;
  errorDetail?: { message?: string };
}

export function toProgress(line: EngineProgressLine): PullProgress {
  const current = line.progressDetail?.current;
  const total = line.progressDetail?.total;
  return {
    ...(line.id ? { id: line.id } : {}),
    status: line.status ?? line.stream?.trimEnd() ?? '',
    ...(line.progress ? { progress: line.progress } : {}),
    ...(typeof current === 'number' ? { current } : {}),
    ...(typeof total === 'number' ? { total } : {}),
  };
}

export interface FollowOptions {
  /** What runs, for messages: "pull", "push", "build", "load". */
  what: string;
  /** Aborted by the caller: the stream was cancelled. */
  signal?: AbortSignal;
  /** Give up when the engine reports nothing for this long. */
  idleMs?: number;
}

/**
 * Reads an engine progress stream to its end, handing each JSON line to `onLine`. An error line
 * rejects with the engine's words (502); silence longer than `idleMs` a 504; a cancel a 499; a
 * broken stream a lost engine. The stream is destroyed whatever happens.
 */
export async function followEngineStream(
  stream: ByteStream,
  onLine: (line: EngineProgressLine) => void,
  opts: FollowOptions,
): Promise<void> {
  const idleMs = opts.idleMs ?? 5 * 60_000;
  const stalled = () =>
    new EngineError(504, `The ${opts.what} made no progress for ${Math.round(idleMs / 1000)} s and was stopped.`);
  let buffer = '';
  let timer: NodeJS.Timeout | undefined;
  let idle = false;
  const arm = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      idle = true;
      stream.destroy?.();
    }, idleMs);
  };
  const handle = (text: string) => {
    if (!text.trim()) return;
    let line: EngineProgressLine;
    try {
      line = JSON.parse(text) as EngineProgressLine;
    } catch {
      line = { status: text.trim() };
    }
    if (line.error || line.errorDetail?.message)
      throw new EngineError(502, (line.errorDetail?.message ?? line.error ?? `The ${opts.what} failed.`).trim());
    onLine(line);
  };
  // Closing the engine's answer closes its connection: the engine stops the work (a build's RUN step too).
  const cancel = () => stream.destroy?.();
  opts.signal?.addEventListener('abort', cancel, { once: true });
  if (opts.signal?.aborted) cancel();
  arm();
  try {
    for await (const chunk of stream) {
      arm();
      buffer += chunk.toString();
      let nl: number;
      while ((nl = buffer.indexOf('\n')) !== -1) {
        handle(buffer.slice(0, nl));
        buffer = buffer.slice(nl + 1);
      }
    }
    handle(buffer);
  } catch (err) {
    if (idle) throw stalled();
    if (opts.signal?.aborted) throw new EngineError(499, `The ${opts.what} was cancelled.`);
    // A broken progress stream is a lost connection; the engine's own refusals came as lines above.
    throw err instanceof AppError
      ? err
      : new DockerUnavailableError(`The connection to the Docker engine was lost during the ${opts.what}.`);
  } finally {
    clearTimeout(timer);
    opts.signal?.removeEventListener('abort', cancel);
    stream.destroy?.();
  }
  if (idle) throw stalled();
}
