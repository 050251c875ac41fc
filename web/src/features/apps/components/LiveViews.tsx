import { appsApi, logsApi } from '@berth/contract';
import { buildUrl } from '../../../lib/api-client';
import { LogPanel, type LogSettings } from '../../../components/logs';
import { useAppStats, useLogStatus } from '../api/live';
import { StatsCharts } from './StatsCharts';
import { useEnvironment } from '../../../lib/environment';

/**
 * Opens the app's log stream while mounted (the page mounts it only while the app runs, or with
 * `initial` a time window, readable after the app stopped).
 */
export function AppLogs({ name, initial }: { name: string; initial?: Partial<LogSettings> }) {
  const env = useEnvironment();
  const onStatus = useLogStatus(name);
  return (
    <LogPanel
      streamUrl={(q) => buildUrl(appsApi.logs, { env, params: { name }, query: q })}
      downloadUrl={(q) => buildUrl(logsApi.appDownload, { env, params: { name }, query: q })}
      onStatus={onStatus}
      initial={initial}
    />
  );
}

/** Opens the app's stats stream while mounted. */
export function AppStats({ name }: { name: string }) {
  return <StatsCharts name={name} live={useAppStats(name)} />;
}
