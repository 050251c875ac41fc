import { useQuery, useQueryClient } from '@tanstack/react-query';
import { swarmApi } from '@berth/contract';
import { buildUrl } from '../../../lib/api-client';
import { useEnvironment } from '../../../lib/environment';
import { useEventStream } from '../../../lib/event-stream';
import { foldLogs, LogView, toLines, type LogBuffer } from '../../apps';
import { swarmKeys } from '../api';

const EMPTY: LogBuffer = { lines: [], dropped: 0 };

/** A service's log (all its tasks): the last lines, then new ones as they come; kept in the query cache. */
export function ServiceLogs({ id }: { id: string }) {
  const queryClient = useQueryClient();
  const key = [...swarmKeys.all(useEnvironment()), 'logs', id];
  useEventStream<string>(buildUrl(swarmApi.logs, { id }), {
    parse: (data) => data,
    frameAligned: false,
    onOpen: () => queryClient.setQueryData<LogBuffer>(key, EMPTY),
    onBatch: (batch) => queryClient.setQueryData<LogBuffer>(key, (prev) => foldLogs(prev, batch.flatMap(toLines))),
  });
  const buffer = useQuery({ queryKey: key, queryFn: () => EMPTY, enabled: false }).data;
  return <LogView buffer={buffer} />;
}
