import { Cron } from 'croner';

/** No schedule (global, override or label) may fire more often than this: each run pulls every image it covers. */
export const MIN_SCHEDULE_INTERVAL_MS = 5 * 60 * 1000;

/** How many upcoming runs are compared to find two closer than the minimum interval (a day's pattern shows). */
const RUNS_COMPARED = 50;

/** What is wrong with a schedule: croner cannot read it, or two runs come closer than `minIntervalMs`. */
export type ScheduleProblem = 'unreadable' | 'too_often';

/**
 * Reads a cron expression the way the auto-update scheduler does (croner: 5 fields, or 6 with
 * seconds first) and returns its next `count` runs, or the problem. The server checks a saved
 * schedule with it and the browser previews a schedule as it is typed with the same code, in the
 * server's `timezone` (the one the scheduler fires in).
 */
export function readSchedule(
  expr: string,
  minIntervalMs: number,
  count = 3,
  timezone?: string,
): { problem: ScheduleProblem; next?: never } | { problem: null; next: Date[] } {
  let job: Cron;
  try {
    job = new Cron(expr, { paused: true, ...(timezone ? { timezone } : {}) });
  } catch {
    return { problem: 'unreadable' };
  }
  const runs = job.nextRuns(Math.max(count, RUNS_COMPARED));
  job.stop();
  for (let i = 1; i < runs.length; i++)
    if (runs[i]!.getTime() - runs[i - 1]!.getTime() < minIntervalMs) return { problem: 'too_often' };
  return { problem: null, next: runs.slice(0, count) };
}
