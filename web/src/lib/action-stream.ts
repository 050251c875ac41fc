import { ActionStreamEvent, type ActionEnd, type ActionState } from '@berth/contract';

/*
 * A compose action's output as its stream tells it (state, output chunks, end): what a project's
 * page and a swarm stack's page show while compose or `docker stack` runs.
 */

/** The browser keeps this much of an action's output (the server keeps the tail too). */
const MAX_OUTPUT_CHARS = 200_000;

export interface ActionOutput extends ActionState {
  /** How the last action ended, once it has. */
  ended: ActionEnd | null;
  /** The viewer closed this (finished) output; the next action shows again. */
  dismissed?: boolean;
}

export type StreamItem =
  { kind: 'state'; state: ActionState } | { kind: 'output'; chunk: string } | { kind: 'end'; end: ActionEnd };

export function parseActionStream(data: string, event: string): StreamItem {
  if (event === ActionStreamEvent.output) return { kind: 'output', chunk: data };
  if (event === ActionStreamEvent.end) return { kind: 'end', end: JSON.parse(data) as ActionEnd };
  return { kind: 'state', state: JSON.parse(data) as ActionState };
}

/** A replayed, finished action carries how it ended in its state. */
function endOf(s: ActionState): ActionEnd | null {
  if (s.running || !s.action || !s.endedAt) return null;
  return { action: s.action, service: s.service, ok: s.ok ?? true, detail: null, endedAt: s.endedAt };
}

export function foldOutput(prev: ActionOutput | undefined, batch: StreamItem[]): ActionOutput {
  let next: ActionOutput = prev ?? { running: false, action: null, service: null, output: '', ended: null };
  for (const item of batch) {
    if (item.kind === 'state') next = { ...item.state, ended: endOf(item.state) };
    else if (item.kind === 'output') next = { ...next, output: (next.output + item.chunk).slice(-MAX_OUTPUT_CHARS) };
    // The live end event carries no time: it ended now.
    else
      next = { ...next, running: false, ended: { ...item.end, endedAt: item.end.endedAt ?? new Date().toISOString() } };
  }
  return next;
}
