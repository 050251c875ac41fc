import type { StatsSample, StreamStatus } from '@berth/contract';
import { appendCapped } from '../../../lib/event-stream';

/** Pure folds of server-sent events into the cached live state; the hooks in ./live apply them. */

/** Spec: live stats keep at most 300 samples per series. */
export const STATS_CAP = 300;

export type DashboardSeries = Record<string, StatsSample[]>;
export type DashboardEvent = { kind: 'update'; sample: StatsSample } | { kind: 'remove'; name: string };

/** Appends samples per app (capped) and drops the apps the stream reports gone. */
export function foldDashboard(
  prev: DashboardSeries | undefined,
  batch: readonly DashboardEvent[],
  cap = STATS_CAP,
): DashboardSeries {
  const next: DashboardSeries = { ...prev };
  const added = new Map<string, StatsSample[]>();
  for (const ev of batch) {
    if (ev.kind === 'remove') {
      delete next[ev.name];
      added.delete(ev.name);
      continue;
    }
    const list = added.get(ev.sample.name) ?? [];
    list.push(ev.sample);
    added.set(ev.sample.name, list);
  }
  for (const [name, samples] of added) next[name] = appendCapped(next[name], samples, cap);
  return next;
}

/** A per-app stream's 'status' event (its items are log lines or stats samples). */
export interface StatusEvent {
  streamStatus: StreamStatus;
}
export const isStatus = (e: unknown): e is StatusEvent => typeof e === 'object' && e !== null && 'streamStatus' in e;

/**
 * Parser for the per-app streams: 'status' events carry a StreamStatus, 'update' events an item.
 */
export function parseAppStream<T>(item: (data: string) => T) {
  return (data: string, event: string): T | StatusEvent =>
    event === 'status' ? { streamStatus: JSON.parse(data) as StreamStatus } : item(data);
}
