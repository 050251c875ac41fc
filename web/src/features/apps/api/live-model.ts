import {
  applyStatsTick,
  tickSample,
  type StatsSample,
  type StatsTick,
  type StreamStatus,
  type TickNumbers,
} from '@berth/contract';
import { appendCapped } from '../../../lib/event-stream';

/** Pure folds of server-sent events into the cached live state; the hooks in ./live apply them. */

/** Spec: live stats keep at most 300 samples per series. */
export const STATS_CAP = 300;

export type DashboardSeries = Record<string, StatsSample[]>;

/** Seconds the server's ticks follow each other (an app missing from a tick kept its numbers). */
const TICK_MS = 1000;

/**
 * Appends an app's new sample. The stream leaves an app out of the ticks where its numbers did not
 * change: those seconds are filled with its previous numbers first, so its chart goes on flat
 * instead of breaking where no sample came.
 */
function appendHeld(prev: readonly StatsSample[] | undefined, sample: StatsSample, cap: number): StatsSample[] {
  const last = prev?.at(-1);
  const held: StatsSample[] = [];
  if (last) {
    const from = Date.parse(last.time);
    // The ticks in between (at most the cap: older ones would be cut anyway).
    const between = Math.round((Date.parse(sample.time) - from) / TICK_MS) - 1;
    for (let i = Math.max(1, between - cap + 1); i <= between; i++)
      held.push({ ...last, time: new Date(from + i * TICK_MS).toISOString() });
  }
  held.push(sample);
  return appendCapped(prev, held, cap);
}

/**
 * Applies the dashboard stream's tick frames in order: `numbers` is the stream's decoder state
 * (what it holds per app, cleared when the stream opens again). Only the apps whose numbers
 * changed get a new array; every other app keeps its array, so its card can skip the render.
 */
export function foldTicks(
  prev: DashboardSeries | undefined,
  numbers: Map<string, TickNumbers>,
  frames: readonly StatsTick[],
  cap = STATS_CAP,
): DashboardSeries {
  const next: DashboardSeries = { ...prev };
  for (const frame of frames) {
    const { changed, removed } = applyStatsTick(numbers, frame);
    for (const name of removed) delete next[name];
    for (const name of changed) next[name] = appendHeld(next[name], tickSample(name, numbers.get(name)!, frame.t), cap);
  }
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
