import { swarmApi } from '@berth/contract';
import { buildUrl } from '../../../lib/api-client';
import { LogPanel } from '../../../components/logs';
import { useEnvironment } from '../../../lib/environment';

/** A service's log (all its tasks) in the shared log view: range, search, levels, pause, as app logs. */
export function ServiceLogs({ id }: { id: string }) {
  const env = useEnvironment();
  return <LogPanel streamUrl={(q) => buildUrl(swarmApi.logs, { env, params: { id }, query: q })} />;
}
