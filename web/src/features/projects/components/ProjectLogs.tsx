import { logsApi } from '@berth/contract';
import { buildUrl } from '../../../lib/api-client';
import { LogPanel } from '../../../components/logs';
import { useEnvironment } from '../../../lib/environment';

/** Every container's log of the project, merged in time order, each service in its own colour. */
export function ProjectLogs({ name, services }: { name: string; services: string[] }) {
  const env = useEnvironment();
  return (
    <LogPanel
      streamUrl={(q) => buildUrl(logsApi.project, { env, params: { name }, query: q })}
      downloadUrl={(q) => buildUrl(logsApi.projectDownload, { env, params: { name }, query: q })}
      services={services}
    />
  );
}
