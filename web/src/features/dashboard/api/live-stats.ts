import { skipToken, useQuery } from '@tanstack/react-query';
import type { StatsSample } from '@berth/contract';
import { useEnvironment } from '../../../lib/environment';
import { queryKeys } from '../../../lib/query-keys';
import { roundPercent, formatBytes } from '../../../lib/format';

/**
 * Per-app views of the dashboard stream's cache entry (filled by the apps feature's stream hook:
 * every running app's recent samples, an app without a new sample keeping its array). Each
 * selector re-renders its component only when what it selects changed, so a card whose numbers
 * did not change stays as it is while other apps' samples arrive.
 */
type Series = Record<string, StatsSample[]>;

function useSeriesSelect<T>(select: (series: Series) => T): T | undefined {
  return useQuery({
    queryKey: queryKeys.appsLive.dashboard(useEnvironment()),
    queryFn: skipToken,
    staleTime: Infinity,
    select,
  }).data;
}

const namesOf = (series: Series) =>
  Object.keys(series)
    .filter((n) => series[n]?.length)
    .sort((a, b) => a.localeCompare(b));

/** The apps the stream reports, sorted; the same array until that set changes (structural sharing). */
export function useDashboardApps(): readonly string[] | undefined {
  return useSeriesSelect(namesOf);
}

/** An app's recent samples, oldest first; a new array only when a sample for it arrived. */
export function useAppLiveStats(name: string): StatsSample[] | undefined {
  return useSeriesSelect((series) => series[name]);
}

/** What a card shows of an app's latest sample, as shown (whole percents, formatted bytes). */
export interface CardNumbers {
  cpu: number;
  mem: number;
  memory: string;
}

/** The latest sample of an app as its card shows it: equal numbers are the same object (no re-render). */
export function useAppCardNumbers(name: string): CardNumbers | undefined {
  return useSeriesSelect((series) => {
    const s = series[name]?.at(-1);
    if (!s) return undefined;
    return {
      cpu: roundPercent(s.cpu_percent),
      mem: roundPercent(s.mem_percent),
      memory: `${formatBytes(s.mem_current)} / ${formatBytes(s.mem_total)}`,
    };
  });
}
