import { useQuery } from '@tanstack/react-query';
import type { StatsSample } from '@berth/contract';
import { TimeChart } from '../../../components/TimeChart';
import { useEnvironment } from '../../../lib/environment';
import { chartColumns, historyQuery, mergeHistory, RANGE_SECONDS } from '../../apps';

/** The app's CPU over the last 10 minutes: its kept history, extended by the dashboard's live samples. */
export function Sparkline({ name, live }: { name: string; live: StatsSample[] }) {
  const history = useQuery(historyQuery(useEnvironment(), name, '10m'));
  const points = mergeHistory(history.data?.samples ?? [], live, RANGE_SECONDS['10m']);
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
