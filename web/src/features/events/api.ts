import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { eventsApi, type EngineEventRecord, type EngineEventType } from '@berth/contract';
import { api, buildUrl } from '../../lib/api-client';
import { useEventStream } from '../../lib/event-stream';
import { queryKeys } from '../../lib/query-keys';
import { useEnvironment } from '../../lib/environment';

export interface EventsFilter {
  type?: EngineEventType;
  action?: string;
  name?: string;
  /** How far back, in hours. */
  hours: number;
}

/** The newest this many events are kept in view. */
export const EVENTS_SHOWN = 500;

const clean = (f: EventsFilter) => ({
  type: f.type || undefined,
  action: f.action?.trim() || undefined,
  name: f.name?.trim() || undefined,
});

export const eventsQuery = (env: string, f: EventsFilter) =>
  queryOptions({
    queryKey: queryKeys.events.list(env, clean(f), f.hours),
    queryFn: ({ signal }) =>
      api(eventsApi.list, {
        env,
        signal,
        query: { ...clean(f), since: new Date(Date.now() - f.hours * 3600_000).toISOString(), limit: EVENTS_SHOWN },
      }),
  });

/** New events first, no id twice, at most EVENTS_SHOWN. */
export function mergeEvents(
  previous: readonly EngineEventRecord[] | undefined,
  batch: readonly EngineEventRecord[],
): EngineEventRecord[] {
  const seen = new Set<number>();
  const out: EngineEventRecord[] = [];
  for (const e of [...[...batch].reverse(), ...(previous ?? [])]) {
    if (seen.has(e.id)) continue;
    seen.add(e.id);
    out.push(e);
  }
  return out.sort((a, b) => b.id - a.id).slice(0, EVENTS_SHOWN);
}

/**
 * The history for a filter, kept live: the stream (same filter) replays from the moment the
 * history was read, so nothing between the two is lost, and new events land in the cache.
 */
export function useLiveEvents(f: EventsFilter) {
  const env = useEnvironment();
  const queryClient = useQueryClient();
  const query = useQuery(eventsQuery(useEnvironment(), f));
  const since = query.dataUpdatedAt ? new Date(query.dataUpdatedAt - 5000).toISOString() : null;
  useEventStream<EngineEventRecord>(since ? buildUrl(eventsApi.stream, { env, query: { ...clean(f), since } }) : null, {
    onBatch: (batch) =>
      queryClient.setQueryData<EngineEventRecord[]>(queryKeys.events.list(env, clean(f), f.hours), (prev) =>
        mergeEvents(prev, batch),
      ),
  });
  return query;
}
