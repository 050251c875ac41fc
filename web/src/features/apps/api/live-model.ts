import type { StatsSample, StreamStatus } from '@berth/contract';
import { appendCapped } from '../../../lib/event-stream';

/** Pure folds of server-sent events into the cached live state; the hooks in ./live apply them. */

/** Spec: live stats keep at most 300 samples per series. */
export const STATS_CAP = 300;
/** The log view keeps the newest lines only, so a chatty container cannot grow the page without bound. */
export const LOG_CAP = 5000;

export type DashboardSeries = Record<string, StatsSample[]>;
export type DashboardEvent = { kind: 'update'; sample: StatsSample } | { kind: 'remove'; name: string };

/** Appends samples per app (capped) and drops the apps the stream reports gone. */
export function foldDashboard(prev: DashboardSeries | undefined, batch: readonly DashboardEvent[], cap = STATS_CAP): DashboardSeries {
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

export interface LogBuffer {
  lines: string[];
  /** How many lines were dropped from the front so far (lets the view keep its place). */
  dropped: number;
}

// Colour and cursor escapes (CSI sequences) mean nothing in the page.
const ANSI = /\u001b\[[0-9;?]*[ -/]*[@-~]/g;
const NEEDS_CLEANING = /[\u001b\r\n]/;

/** One event's text as display lines: escapes stripped, the trailing newline gone, several lines split. */
export function toLines(data: string): string[] {
  const text = data.replace(ANSI, '').replace(/\r?\n$/, '');
  return text.split(/\r?\n/);
}

export function foldLogs(prev: LogBuffer | undefined, lines: readonly string[], cap = LOG_CAP): LogBuffer {
  const before = prev?.lines ?? [];
  const all = before.length + lines.length;
  const next = appendCapped(before, lines, cap);
  return { lines: next, dropped: (prev?.dropped ?? 0) + (all - next.length) };
}

/** A per-app stream's 'status' event (its items are log lines or stats samples). */
export interface StatusEvent {
  streamStatus: StreamStatus;
}
export const isStatus = (e: unknown): e is StatusEvent => typeof e === 'object' && e !== null && 'streamStatus' in e;

/**
 * Parser for the per-app streams: 'status' events carry a StreamStatus, 'update' events an item.
 * Items are not wrapped: a flooding log delivers thousands a second.
 */
export function parseAppStream<T>(item: (data: string) => T) {
  return (data: string, event: string): T | StatusEvent => (event === 'status' ? { streamStatus: JSON.parse(data) as StreamStatus } : item(data));
}

/** The display lines of a batch of log events; most lines need no cleaning and are taken as they are. */
export function logLines(batch: readonly (string | StatusEvent)[]): string[] {
  const out: string[] = [];
  for (const e of batch) {
    if (typeof e !== 'string') continue;
    if (NEEDS_CLEANING.test(e)) out.push(...toLines(e));
    else out.push(e);
  }
  return out;
}
