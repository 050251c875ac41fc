import { Worker } from 'node:worker_threads';
import { ValidationError } from '../../errors';

/**
 * Regular expressions run in a worker thread with a time budget per batch of lines: JavaScript's
 * backtracking engine can take exponential time on a pattern like `(a+)+$`, and on the main thread
 * that would stall every request. A batch over budget terminates the worker (the only way to stop
 * a running match) and the search answers 400. (The linear-time RE2 binding, `re2`, has no
 * prebuilt binary reachable here and compiles abseil + RE2 from source for minutes: not used.)
 */
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
let re = null;
parentPort.on('message', (m) => {
  if (m.pattern !== undefined) { re = new RegExp(m.pattern, m.flags); return; }
  const hits = [];
  for (let i = 0; i < m.lines.length; i++) if (re.test(m.lines[i])) hits.push(i);
  parentPort.postMessage(hits);
});`;

/** Longest a batch of lines may take to match. */
export const BATCH_BUDGET_MS = 2000;

export interface Matcher {
  /** Indexes of the lines that match. */
  match(lines: string[]): Promise<number[]>;
  close(): Promise<void>;
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Compiles the pattern here first, so a syntax error is a 400 naming the problem before any log is read. */
export function compilePattern(q: string, regex: boolean, caseSensitive: boolean): { pattern: string; flags: string } {
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

/** A worker that matches batches of lines against one pattern, each within `budgetMs`. */
export function startMatcher(compiled: { pattern: string; flags: string }, budgetMs = BATCH_BUDGET_MS): Matcher {
  const worker = new Worker(WORKER_SOURCE, { eval: true, resourceLimits: { maxOldGenerationSizeMb: 64 } });
  worker.unref();
  worker.postMessage(compiled);
  return {
    match: (lines) =>
      new Promise<number[]>((resolve, reject) => {
        const timer = setTimeout(() => {
          cleanup();
          void worker.terminate();
          reject(
            new ValidationError(
              `The regular expression took longer than ${budgetMs / 1000} s on ${lines.length} lines; it probably backtracks catastrophically (nested repetition such as (a+)+). Simplify it.`,
              [{ field: 'q', message: 'too slow' }],
            ),
          );
        }, budgetMs);
        const onMessage = (hits: number[]) => {
          cleanup();
          resolve(hits);
        };
        const onError = (err: Error) => {
          cleanup();
          reject(err);
        };
        const cleanup = () => {
          clearTimeout(timer);
          worker.off('message', onMessage);
          worker.off('error', onError);
        };
        worker.on('message', onMessage);
        worker.on('error', onError);
        worker.postMessage({ lines });
      }),
    close: async () => {
      await worker.terminate();
    },
  };
}
