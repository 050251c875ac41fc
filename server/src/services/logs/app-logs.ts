import { Readable } from 'node:stream';
import type { LogDownloadQuery, LogSearchQuery, LogSearchResult } from '@berth/contract';
import type { Uses } from '../../context';
import type { ContainerDetail } from '../../docker/engine';
import { openLogStream, readLogBatches, readLogBytes, type LogLine } from '../../docker/logs';
import { bareName } from '../../docker/names';
import { isOn, logEntry, parseLogRange, type LogRange } from './log-range';
import { compilePattern, type RegexPool } from './log-search';

/** Lines handed to the matcher at once. */
const SEARCH_BATCH = 2000;
/** A search reads the log for at most this long, then answers what it found so far. */
const SEARCH_BUDGET_MS = 20_000;
const DEFAULT_LIMIT = 500;
const MAX_LIMIT = 5000;

/** The engine's range options for a LogRange (the engine's since is inclusive, until exclusive). */
export const engineRange = (r: LogRange) => ({
  ...(r.sinceNanos !== undefined ? { afterNanos: r.sinceNanos - 1n } : {}),
  ...(r.untilNanos !== undefined ? { untilNanos: r.untilNanos } : {}),
});

/** A file name for a log download: `<name>-<UTC time>.log`. */
export const logFileName = (name: string) =>
  `${name.replace(/[^\w.-]+/g, '_')}-${new Date().toISOString().replace(/[:.]/g, '-')}.log`;

/** Downloads and server-side search of one app's log. */
export class AppLogsService {
  constructor(
    private readonly ctx: Uses<'docker'>,
    private readonly regexPool: RegexPool,
  ) {}

  /** The log as a byte stream: the engine's, without frame headers, read only as fast as the client takes it. */
  async download(target: ContainerDetail, q: LogDownloadQuery): Promise<{ filename: string; body: Readable }> {
    const range = parseLogRange(q, undefined);
    const stream = await openLogStream(this.ctx.docker, target.Id, {
      follow: false,
      timestamps: range.timestamps,
      ...engineRange(range),
    });
    return {
      filename: logFileName(bareName(target.Name)),
      body: Readable.from(readLogBytes(stream, Boolean(target.Config.Tty))),
    };
  }

  /** Searches the log of the range (the whole log by default): see searchLog. */
  async search(target: ContainerDetail, q: LogSearchQuery, user: string): Promise<LogSearchResult> {
    return searchLog(this.regexPool, user, q, async (range, signal) => {
      const stream = await openLogStream(this.ctx.docker, target.Id, {
        follow: false,
        timestamps: true,
        signal,
        ...engineRange(range),
      });
      return readLogBatches(stream, Boolean(target.Config.Tty));
    });
  }
}

/**
 * Reads the batches of lines `open` gives for the query's range and keeps the newest `limit`
 * matching lines; the pattern runs in the server's regex workers with a time budget, at most two
 * searches per user at once (see log-search.ts). A live log and a kept one (log-archive) alike.
 */
export async function searchLog(
  regexPool: RegexPool,
  user: string,
  q: LogSearchQuery,
  open: (range: LogRange, signal: AbortSignal) => Promise<AsyncIterable<LogLine[]> | Iterable<LogLine[]>>,
): Promise<LogSearchResult> {
  const compiled = compilePattern(q.q, isOn(q.regex), isOn(q.case));
  const matcher = regexPool.begin(user, compiled);
  const range = parseLogRange(q, undefined);
  const limit = Math.min(Number(q.limit ?? DEFAULT_LIMIT), MAX_LIMIT);
  const abort = new AbortController();
  const deadline = setTimeout(() => abort.abort(), SEARCH_BUDGET_MS);
  const matches: LogLine[] = [];
  let matched = 0;
  let scanned = 0;
  let pending: LogLine[] = [];
  const flush = async () => {
    const batch = pending;
    pending = [];
    scanned += batch.length;
    for (const i of await matcher.match(batch.map((l) => l.text))) {
      matched++;
      matches.push(batch[i]!);
      if (matches.length > limit) matches.shift();
    }
  };
  try {
    const batches = await open(range, abort.signal);
    try {
      for await (const batch of batches) {
        pending.push(...batch);
        if (pending.length >= SEARCH_BATCH) await flush();
      }
    } catch (err) {
      if (!abort.signal.aborted) throw err;
    }
    await flush();
  } finally {
    clearTimeout(deadline);
    matcher.close();
  }
  const timedOut = abort.signal.aborted;
  return {
    matches: matches.map((l) => logEntry(l, true)),
    truncated: matched > limit || timedOut,
    scanned,
    ...(timedOut
      ? {
          detail: `The search read the log for ${SEARCH_BUDGET_MS / 1000} s and stopped; narrow it with since/until.`,
        }
      : matched > limit
        ? { detail: `${matched} lines matched; the newest ${limit} are shown.` }
        : {}),
  };
}
