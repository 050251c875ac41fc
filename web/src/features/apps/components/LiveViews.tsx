import { appsApi, logsApi } from '@berth/contract';
import { buildUrl } from '../../../lib/api-client';
import { LogPanel } from '../../../components/logs';
import { useAppStats, useLogStatus } from '../api/live';
import { StatsCharts } from './StatsCharts';
import { useEnvironment } from '../../../lib/environment';

/** Opens the app's log stream while mounted (the page mounts it only while the app runs). */
export function AppLogs({ name }: { name: string }) {
  const env = useEnvironment();
  const onStatus = useLogStatus(name);
  return (
    <LogPanel
      streamUrl={(q) => buildUrl(appsApi.logs, { env, params: { name }, query: q })}
      downloadUrl={(q) => buildUrl(logsApi.appDownload, { env, params: { name }, query: q })}
      onStatus={onStatus}
    />
  );
}

/** Opens the app's stats stream while mounted. */
export function AppStats({ name }: { name: string }) {
  return <StatsCharts name={name} live={useAppStats(name)} />;
}
