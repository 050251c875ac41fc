import { skipToken, useQuery, useQueryClient } from '@tanstack/react-query';
import { ActionStreamEvent, projectApi, type ActionEnd, type ActionState } from '@berth/contract';
import { buildUrl } from '../../../lib/api-client';
import { useEventStream } from '../../../lib/event-stream';
import { queryKeys } from '../../../lib/query-keys';
import { useEnvironment } from '../../../lib/environment';

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

/**
 * The live output of the project's running compose action (replayed from its start when the
 * page opens mid-action), kept in the query cache. An ended action re-reads the project.
 */
export function useActionOutput(name: string, enabled = true): ActionOutput | undefined {
  const env = useEnvironment();
  const queryClient = useQueryClient();
  useEventStream<StreamItem>(enabled ? buildUrl(projectApi.stream, { env, params: { name } }) : null, {
    event: [ActionStreamEvent.state, ActionStreamEvent.output, ActionStreamEvent.end],
    parse: parseActionStream,
    onBatch: (batch) => {
      queryClient.setQueryData<ActionOutput>(queryKeys.projectsLive.output(env, name), (prev) =>
        foldOutput(prev, batch),
      );
      if (batch.some((i) => i.kind === 'end'))
        void queryClient.invalidateQueries({ queryKey: queryKeys.projects.detail(env, name) });
    },
  });
  return useQuery<ActionOutput>({
    queryKey: queryKeys.projectsLive.output(env, name),
    queryFn: skipToken,
    staleTime: Infinity,
  }).data;
}

/** Hides the finished action's output card until the next action starts. */
export function useDismissOutput(name: string): () => void {
  const env = useEnvironment();
  const queryClient = useQueryClient();
  return () =>
    queryClient.setQueryData<ActionOutput>(
      queryKeys.projectsLive.output(env, name),
      (prev) => prev && { ...prev, dismissed: true },
    );
}
