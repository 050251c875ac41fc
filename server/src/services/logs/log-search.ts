import os from 'node:os';
import { Worker } from 'node:worker_threads';
import { TooManyRequestsError, ValidationError } from '../../errors';

/**
 * Regular expressions run in worker threads with time budgets: JavaScript's backtracking engine
 * can take exponential time on a pattern like `(a+)+$`, and on the main thread that would stall
 * every request. The workers form one small pool for the whole server, kept between searches; a
 * batch over its budget terminates its worker (the only way to stop a running match, a fresh one
 * takes its place) and the search answers 400. Each user runs at most MAX_SEARCHES_PER_USER
 * searches at once (429 beyond) and each search has a total matching budget, so many catastrophic
 * searches queue for the pool's threads instead of taking every core from the event loop.
 * (The linear-time RE2 binding, `re2`, has no prebuilt binary reachable here and compiles abseil +
 * RE2 from source for minutes; an RE2 port would refuse look-arounds and back-references users type.)
 */
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
let key = null;
let re = null;
parentPort.on('message', (m) => {
  const k = m.flags + '/' + m.pattern;
  if (k !== key) { re = new RegExp(m.pattern, m.flags); key = k; }
  const hits = [];
  for (let i = 0; i < m.lines.length; i++) if (re.test(m.lines[i])) hits.push(i);
  parentPort.postMessage(hits);
});`;

/** Longest a batch of lines may take to match. */
export const BATCH_BUDGET_MS = 2000;
/** Longest all the batches of one search may take to match together. */
export const SEARCH_MATCH_BUDGET_MS = 5000;
export const MAX_SEARCHES_PER_USER = 2;
/** Threads that match at once: at least one core stays with the event loop. */
const POOL_SIZE = Math.max(1, Math.min(2, os.availableParallelism() - 1));

export interface CompiledPattern {
  pattern: string;
  flags: string;
}

export interface Matcher {
  /** Indexes of the lines that match. */
  match(lines: string[]): Promise<number[]>;
  /** Ends the search: gives the user's place back (idempotent). */
  close(): void;
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Compiles the pattern here first, so a syntax error is a 400 naming the problem before any log is read. */
export function compilePattern(q: string, regex: boolean, caseSensitive: boolean): CompiledPattern {
  const pattern = regex ? q : escapeRegExp(q);
  const flags = caseSensitive ? 'u' : 'iu';
  try {
    new RegExp(pattern, flags);
  } catch (err) {
    throw new ValidationError(
      `The regular expression is not valid: ${(err as Error).message.replace(/^Invalid regular expression: /, '')}.`,
      [{ field: 'q', message: 'invalid regular expression' }],
    );
  }
  return { pattern, flags };
}

interface Job {
  compiled: CompiledPattern;
  lines: string[];
  budgetMs: number;
  done: (err: Error | null, result?: { hits: number[]; ms: number }) => void;
}

/** The server's regex workers and the searches using them. */
export class RegexPool {
  private readonly idle: Worker[] = [];
  private running = 0;
  private readonly queue: Job[] = [];
  private readonly perUser = new Map<string, number>();
  private closed = false;

  constructor(
    private readonly limits = {
      threads: POOL_SIZE,
      perUser: MAX_SEARCHES_PER_USER,
      batchMs: BATCH_BUDGET_MS,
      searchMs: SEARCH_MATCH_BUDGET_MS,
    },
  ) {}

  /** Starts a search of `user` (429 when they already run the most allowed). */
  begin(user: string, compiled: CompiledPattern): Matcher {
    const used = this.perUser.get(user) ?? 0;
    if (used >= this.limits.perUser)
      throw new TooManyRequestsError(
        `You already have ${used} log searches running (the limit is ${this.limits.perUser}); wait for one to finish.`,
        2,
      );
    this.perUser.set(user, used + 1);
    let spent = 0;
    let ended = false;
    return {
      match: async (lines) => {
        const left = this.limits.searchMs - spent;
        const budgetMs = Math.min(this.limits.batchMs, left);
        const { hits, ms } = await this.run(compiled, lines, budgetMs).catch((err: unknown) => {
          if (err !== BUDGET) throw err;
          throw tooSlow(
            budgetMs === left ? this.limits.searchMs : this.limits.batchMs,
            budgetMs === left,
            lines.length,
          );
        });
        spent += ms;
        return hits;
      },
      close: () => {
        if (ended) return;
        ended = true;
        const left = (this.perUser.get(user) ?? 1) - 1;
        if (left > 0) this.perUser.set(user, left);
        else this.perUser.delete(user);
      },
    };
  }

  /** Searches running now, of a user or of everyone. */
  searches(user?: string): number {
    if (user !== undefined) return this.perUser.get(user) ?? 0;
    return [...this.perUser.values()].reduce((a, b) => a + b, 0);
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) job.done(new Error('The server is shutting down.'));
    await Promise.all(this.idle.splice(0).map((w) => w.terminate()));
  }

  private run(compiled: CompiledPattern, lines: string[], budgetMs: number) {
    return new Promise<{ hits: number[]; ms: number }>((resolve, reject) => {
      this.queue.push({ compiled, lines, budgetMs, done: (err, r) => (err ? reject(err) : resolve(r!)) });
      this.pump();
    });
  }

  private pump(): void {
    while (!this.closed && this.queue.length && (this.idle.length || this.running < this.limits.threads)) {
      const job = this.queue.shift()!;
      const worker = this.idle.pop() ?? newWorker();
      this.running += 1;
      this.dispatch(worker, job);
    }
  }

  private dispatch(worker: Worker, job: Job): void {
    const started = performance.now();
    const finish = (err: Error | null, hits?: number[]) => {
      clearTimeout(timer);
      worker.off('message', onMessage);
      worker.off('error', onError);
      this.running -= 1;
      if (err) void worker.terminate();
      else if (this.closed) void worker.terminate();
      else this.idle.push(worker);
      job.done(err, err ? undefined : { hits: hits!, ms: performance.now() - started });
      this.pump();
    };
    const onMessage = (hits: number[]) => finish(null, hits);
    const onError = (err: Error) => finish(err);
    const timer = setTimeout(() => finish(BUDGET), job.budgetMs);
    worker.on('message', onMessage);
    worker.on('error', onError);
    worker.postMessage({ ...job.compiled, lines: job.lines });
  }
}

/** The rejection of a batch over its budget (its worker is terminated). */
const BUDGET = new Error('over budget');

function newWorker(): Worker {
  const worker = new Worker(WORKER_SOURCE, { eval: true, resourceLimits: { maxOldGenerationSizeMb: 64 } });
  worker.unref();
  return worker;
}

function tooSlow(budgetMs: number, wholeSearch: boolean, lines: number): ValidationError {
  const detail = wholeSearch
    ? `The regular expression used the search's matching budget of ${budgetMs / 1000} s; it is too slow for this log (nested repetition such as (a+)+ backtracks catastrophically). Simplify it or narrow the search with since/until.`
    : `The regular expression took longer than ${budgetMs / 1000} s on ${lines} lines; it probably backtracks catastrophically (nested repetition such as (a+)+). Simplify it.`;
  return new ValidationError(detail, [{ field: 'q', message: 'too slow' }]);
}
