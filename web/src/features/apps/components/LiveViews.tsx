import { useAppLogs, useAppStats } from '../api/live';
import { LogView } from './LogView';
import { StatsCharts } from './StatsCharts';

/** Opens the app's log stream while mounted (the page mounts it only while the app runs). */
export function AppLogs({ name }: { name: string }) {
  return <LogView buffer={useAppLogs(name)} />;
}

/** Opens the app's stats stream while mounted. */
export function AppStats({ name }: { name: string }) {
  return <StatsCharts name={name} live={useAppStats(name)} />;
}
