import { useQuery } from '@tanstack/react-query';
import { TimeChart } from '../../../components/TimeChart';
import { useEnvironment } from '../../../lib/environment';
import { chartColumns, historyQuery, mergeHistory, RANGE_SECONDS } from '../../apps';
import { useAppLiveStats } from '../api/live-stats';

/** The app's CPU over the last 10 minutes: its kept history, extended by the dashboard's live samples of it. */
export function Sparkline({ name }: { name: string }) {
  const history = useQuery(historyQuery(useEnvironment(), name, '10m'));
  const live = useAppLiveStats(name);
  const points = mergeHistory(history.data?.samples ?? [], live ?? [], RANGE_SECONDS['10m']);
  const { times, values } = chartColumns(points, 1, [(p) => p.cpu_percent]);
  return (
    <TimeChart
      compact
      height={40}
      label={`CPU of ${name}, last 10 minutes`}
      times={times}
      series={[{ label: 'CPU', color: 'var(--mantine-color-blue-6)', values: values[0] ?? [] }]}
      max={100}
      format={(v) => `${Math.round(v)}%`}
    />
  );
}
