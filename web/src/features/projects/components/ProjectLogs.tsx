import { logsApi } from '@berth/contract';
import { buildUrl } from '../../../lib/api-client';
import { LogPanel } from '../../logs';

/** Every container's log of the project, merged in time order, each service in its own colour. */
export function ProjectLogs({ name, services }: { name: string; services: string[] }) {
  return (
    <LogPanel
      streamUrl={(q) => buildUrl(logsApi.project, { name }, q)}
      downloadUrl={(q) => buildUrl(logsApi.projectDownload, { name }, q)}
      services={services}
    />
  );
}
