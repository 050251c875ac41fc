/** How many archives a job keeps: the newest `last`, plus the newest of each of the last `daily` days and `weekly` weeks. */
export interface Retention {
  last: number;
  daily: number;
  weekly: number;
}

const day = (d: Date) => d.toISOString().slice(0, 10);

/** The ISO 8601 week (UTC) a time falls in, as `YYYY-Www`: weeks start on Monday, week 1 holds the year's first Thursday. */
export function isoWeek(d: Date): string {
  const t = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));
  const weekday = t.getUTCDay() || 7;
  t.setUTCDate(t.getUTCDate() + 4 - weekday); // the Thursday of this week names its year
  const yearStart = Date.UTC(t.getUTCFullYear(), 0, 1);
  const week = Math.ceil(((t.getTime() - yearStart) / 86_400_000 + 1) / 7);
  return `${t.getUTCFullYear()}-W${String(week).padStart(2, '0')}`;
}

/**
 * The archives retention removes. Kept: the `last` newest; for each of the `daily` most recent
 * days that have an archive, that day's newest; likewise for the `weekly` most recent ISO weeks
 * (UTC). A period without archives does not use up a place (as borg and restic count). Pure:
 * answers the ids to remove, oldest last as given, and never the newest archive.
 */
export function expiredArchives<A extends { id: number; created_at: string }>(archives: A[], keep: Retention): A[] {
  const newestFirst = [...archives].sort((a, b) => b.created_at.localeCompare(a.created_at) || b.id - a.id);
  const kept = new Set<number>(newestFirst.slice(0, Math.max(1, keep.last)).map((a) => a.id));
  for (const [count, period] of [
    [keep.daily, day],
    [keep.weekly, isoWeek],
  ] as const) {
    const seen = new Set<string>();
    for (const a of newestFirst) {
      if (seen.size >= count) break;
      const p = period(new Date(a.created_at));
      if (seen.has(p)) continue;
      seen.add(p);
      kept.add(a.id);
    }
  }
  return newestFirst.filter((a) => !kept.has(a.id));
}
