import type { LogArchive } from '@berth/contract';
import { formatDate } from '../../lib/format';

/** The time its kept lines cover, from the first line to the last (the container's start and stop if it logged nothing). */
export function timeSpan(a: LogArchive): string {
  const from = a.firstLineAt ?? a.startedAt;
  const to = a.lastLineAt ?? a.finishedAt;
  if (!from && !to) return '-';
  const start = formatDate(from);
  const end = formatDate(to);
  // The same day once: '2026-11-27 10:00:01 – 10:05:33'.
  return start.slice(0, 10) === end.slice(0, 10) ? `${start} – ${end.slice(11)}` : `${start} – ${end}`;
}

/** How the container ended, in words. */
export function howItEnded(a: LogArchive): string {
  const code = a.exitCode === null ? '' : ` (exit code ${a.exitCode})`;
  if (a.reason === 'replaced') return `Replaced by a newer container${code}`;
  if (a.reason === 'removed') return `Removed${code}`;
  return a.exists ? `Stopped${code}; the container still exists` : `Stopped${code}, then removed`;
}

/** The day its lines go: kept for `retentionDays` from when they were kept. */
export function keptUntil(a: LogArchive, retentionDays: number): string {
  return formatDate(Date.parse(a.capturedAt) + retentionDays * 86_400_000).slice(0, 10);
}
