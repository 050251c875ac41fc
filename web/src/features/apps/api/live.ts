import { useEffect, useRef } from 'react';
import { skipToken, useQuery, useQueryClient } from '@tanstack/react-query';
import { appsApi, StreamEvent, type App, type StatsSample } from '@berth/contract';
import { buildUrl } from '../../../lib/api-client';
import { appendCapped, useEventStream } from '../../../lib/event-stream';
import { isRunning } from '../model';
import { appKeys, liveKeys } from './keys';
import { clearLive } from './mutations';
import { foldDashboard, foldLogs, parseAppStream, STATS_CAP, toLines, type AppStreamEvent, type DashboardEvent, type DashboardSeries, type LogBuffer } from './live-model';

/** Reads a cache entry that only a stream fills (never fetched). */
function useLive<T>(queryKey: readonly unknown[]) {
  return useQuery<T>({ queryKey, queryFn: skipToken, staleTime: Infinity }).data;
}

/** The dashboard stream: samples of every running app, kept per app in the query cache. */
export function useDashboardStats(): DashboardSeries {
  const queryClient = useQueryClient();
  useEventStream<DashboardEvent>(appsApi.dashboardStats.path, {
    event: [StreamEvent.update, StreamEvent.remove],
    parse: (data, event) => (event === StreamEvent.remove ? { kind: 'remove', name: (JSON.parse(data) as { name: string }).name } : { kind: 'update', sample: JSON.parse(data) as StatsSample }),
    // A fresh stream reports every running app anew; what was cached from an earlier one may have stopped since.
    onOpen: () => queryClient.setQueryData<DashboardSeries>(liveKeys.dashboard(), {}),
    onBatch: (batch) => queryClient.setQueryData<DashboardSeries>(liveKeys.dashboard(), (prev) => foldDashboard(prev, batch)),
  });
  return useLive<DashboardSeries>(liveKeys.dashboard()) ?? EMPTY;
}
const EMPTY: DashboardSeries = {};

/** Clears the dashboard's samples; the stream refills them within a second or two. */
export function useResetDashboard() {
  const queryClient = useQueryClient();
  return () => queryClient.setQueryData<DashboardSeries>(liveKeys.dashboard(), {});
}

/**
 * Keeps the apps list live: the dashboard stream reports apps as they start and stop, and when
 * its set of apps disagrees with the list's running apps, the list is read again.
 */
export function useAppsLiveRefresh(list: readonly App[] | undefined) {
  const queryClient = useQueryClient();
  const series = useDashboardStats();
  const seen = useRef<Set<string>>(new Set());
  const names = Object.keys(series).sort().join('\n');
  useEffect(() => {
    if (!list) return;
    const now = new Set(names ? names.split('\n') : []);
    const running = new Set(list.filter(isRunning).map((a) => a.name));
    const appeared = [...now].some((n) => !seen.current.has(n) && !running.has(n));
    const left = [...seen.current].some((n) => !now.has(n) && running.has(n));
    seen.current = now;
    if (appeared || left) void queryClient.invalidateQueries({ queryKey: appKeys.list(), exact: true });
  }, [names, list, queryClient]);
}

/** A per-app stream said the app stopped, was removed or the engine went away: re-read the app. */
function useOnStatus(name: string) {
  const queryClient = useQueryClient();
  return (batch: AppStreamEvent<unknown>[]) => {
    const last = batch.findLast((e) => e.kind === 'status');
    if (!last || last.kind !== 'status' || last.status.status === 'running') return;
    clearLive(queryClient, name);
    void queryClient.invalidateQueries({ queryKey: appKeys.detail(name), exact: true });
    void queryClient.invalidateQueries({ queryKey: appKeys.list(), exact: true });
  };
}

/** Live log lines of an app; mount only while it runs (the server replays the last lines on every connect). */
export function useAppLogs(name: string): LogBuffer | undefined {
  const queryClient = useQueryClient();
  const onStatus = useOnStatus(name);
  useEventStream<AppStreamEvent<string>>(buildUrl(appsApi.logs, { name }), {
    event: [StreamEvent.update, StreamEvent.status],
    parse: parseAppStream((data) => data),
    onOpen: () => queryClient.setQueryData<LogBuffer>(liveKeys.logs(name), { lines: [], dropped: 0 }),
    onBatch: (batch) => {
      const lines = batch.flatMap((e) => (e.kind === 'item' ? toLines(e.item) : []));
      if (lines.length) queryClient.setQueryData<LogBuffer>(liveKeys.logs(name), (prev) => foldLogs(prev, lines));
      onStatus(batch);
    },
  });
  return useLive<LogBuffer>(liveKeys.logs(name));
}

/** Live stats samples of an app, at most 300; mount only while it runs. */
export function useAppStats(name: string): StatsSample[] | undefined {
  const queryClient = useQueryClient();
  const onStatus = useOnStatus(name);
  useEventStream<AppStreamEvent<StatsSample>>(buildUrl(appsApi.stats, { name }), {
    event: [StreamEvent.update, StreamEvent.status],
    parse: parseAppStream((data) => JSON.parse(data) as StatsSample),
    onBatch: (batch) => {
      const samples = batch.flatMap((e) => (e.kind === 'item' ? [e.item] : []));
      if (samples.length) queryClient.setQueryData<StatsSample[]>(liveKeys.stats(name), (prev) => appendCapped(prev, samples, STATS_CAP));
      onStatus(batch);
    },
  });
  return useLive<StatsSample[]>(liveKeys.stats(name));
}
