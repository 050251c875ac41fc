import { useEffect, useRef } from 'react';
import { skipToken, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  appsApi,
  StreamEvent,
  type App,
  type StatsSample,
  type StatsTick,
  type StreamStatus,
  type TickNumbers,
} from '@berth/contract';
import { buildUrl } from '../../../lib/api-client';
import { appendCapped, useEventStream } from '../../../lib/event-stream';
import { isRunning } from '../model';
import { clearLive, removedHere } from './mutations';
import { foldTicks, isStatus, parseAppStream, STATS_CAP, type DashboardSeries, type StatusEvent } from './live-model';
import { queryKeys } from '../../../lib/query-keys';
import { useEnvironment } from '../../../lib/environment';

/** Reads a cache entry that only a stream fills (never fetched). */
function useLive<T>(queryKey: readonly unknown[]) {
  return useQuery<T>({ queryKey, queryFn: skipToken, staleTime: Infinity }).data;
}

/**
 * Opens the dashboard stream in its tick format (one frame a second at most with the apps whose
 * numbers changed, compressed), which keeps every running app's samples in the query cache; an
 * app whose numbers did not change keeps its array (see foldTicks).
 */
function useDashboardStream() {
  const env = useEnvironment();
  const queryClient = useQueryClient();
  const numbers = useRef(new Map<string, TickNumbers>());
  useEventStream<StatsTick>(buildUrl(appsApi.dashboardStats, { env, query: { format: 'tick' } }), {
    event: StreamEvent.tick,
    parse: (data) => JSON.parse(data) as StatsTick,
    // A fresh stream starts with a full frame; what was cached from an earlier one may have stopped since.
    onOpen: () => {
      numbers.current = new Map();
      queryClient.setQueryData<DashboardSeries>(queryKeys.appsLive.dashboard(env), {});
    },
    onBatch: (frames) =>
      queryClient.setQueryData<DashboardSeries>(queryKeys.appsLive.dashboard(env), (prev) =>
        foldTicks(prev, numbers.current, frames),
      ),
  });
}

/** The dashboard: recent samples of every running app (at most 300 each). */
export function useDashboardStats(): DashboardSeries {
  const env = useEnvironment();
  useDashboardStream();
  return useLive<DashboardSeries>(queryKeys.appsLive.dashboard(env)) ?? EMPTY;
}
const EMPTY: DashboardSeries = {};

/** Which apps the dashboard stream currently reports (a newline-joined, sorted string), re-rendering only when that changes. */
function useDashboardNames(): string {
  const env = useEnvironment();
  useDashboardStream();
  const { data } = useQuery({
    queryKey: queryKeys.appsLive.dashboard(env),
    queryFn: skipToken,
    staleTime: Infinity,
    select: (series: DashboardSeries) => Object.keys(series).sort().join('\n'),
  });
  return data ?? '';
}

/** Clears the dashboard's samples; the stream refills them within a second or two. */
export function useResetDashboard() {
  const env = useEnvironment();
  const queryClient = useQueryClient();
  return () => queryClient.setQueryData<DashboardSeries>(queryKeys.appsLive.dashboard(env), {});
}

/**
 * Keeps the apps list live: the dashboard stream reports apps as they start and stop, and when
 * its set of apps disagrees with the list's running apps, the list is read again.
 */
export function useAppsLiveRefresh(list: readonly App[] | undefined) {
  const env = useEnvironment();
  const queryClient = useQueryClient();
  const names = useDashboardNames();
  const seen = useRef<Set<string>>(new Set());
  useEffect(() => {
    if (!list) return;
    const now = new Set(names ? names.split('\n') : []);
    const running = new Set(list.filter(isRunning).map((a) => a.name));
    const appeared = [...now].some((n) => !seen.current.has(n) && !running.has(n));
    const left = [...seen.current].some((n) => !now.has(n) && running.has(n));
    seen.current = now;
    if (appeared || left) void queryClient.invalidateQueries({ queryKey: queryKeys.apps.list(env), exact: true });
  }, [names, list, queryClient, env]);
}

/** A per-app stream said the app stopped, was removed or the engine went away: re-read the app. */
function useOnStatus(name: string) {
  const env = useEnvironment();
  const queryClient = useQueryClient();
  return (batch: readonly unknown[]) => {
    const last = batch.findLast(isStatus);
    if (!last || last.streamStatus.status === 'running') return;
    clearLive(queryClient, env, name);
    if (last.streamStatus.status === 'removed' && removedHere(queryClient, env, name)) return;
    void queryClient.invalidateQueries({ queryKey: queryKeys.apps.detail(env, name), exact: true });
    void queryClient.invalidateQueries({ queryKey: queryKeys.apps.list(env), exact: true });
  };
}

/** What a log stream's status means for the app's cached state (stopped, removed, engine gone: re-read it). */
export function useLogStatus(name: string): (s: StreamStatus) => void {
  const onStatus = useOnStatus(name);
  return (s) => onStatus([{ streamStatus: s }]);
}

/** Live stats samples of an app, at most 300; mount only while it runs. */
export function useAppStats(name: string): StatsSample[] | undefined {
  const env = useEnvironment();
  const queryClient = useQueryClient();
  const onStatus = useOnStatus(name);
  useEventStream<StatsSample | StatusEvent>(buildUrl(appsApi.stats, { env, params: { name } }), {
    event: [StreamEvent.update, StreamEvent.status],
    parse: parseAppStream((data) => JSON.parse(data) as StatsSample),
    onBatch: (batch) => {
      const samples = batch.filter((e): e is StatsSample => !isStatus(e));
      if (samples.length)
        queryClient.setQueryData<StatsSample[]>(queryKeys.appsLive.stats(env, name), (prev) =>
          appendCapped(prev, samples, STATS_CAP),
        );
      onStatus(batch);
    },
  });
  return useLive<StatsSample[]>(queryKeys.appsLive.stats(env, name));
}
