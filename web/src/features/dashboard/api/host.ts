import { skipToken, useQuery, useQueryClient } from '@tanstack/react-query';
import { hostApi, StreamEvent, type HostOverview } from '@berth/contract';
import { buildUrl } from '../../../lib/api-client';
import { useEnvironment } from '../../../lib/environment';
import { useEventStream } from '../../../lib/event-stream';
import { queryKeys } from '../../../lib/query-keys';

/** The host overview, kept current by its stream (one event every two seconds) while mounted. */
export function useHostOverview(): HostOverview | undefined {
  const env = useEnvironment();
  const queryClient = useQueryClient();
  useEventStream<HostOverview>(buildUrl(hostApi.stream, { env }), {
    event: [StreamEvent.update],
    parse: (data) => JSON.parse(data) as HostOverview,
    onBatch: (batch) => {
      const last = batch.at(-1);
      if (last) queryClient.setQueryData(queryKeys.host.overview(env), last);
    },
  });
  return useQuery<HostOverview>({ queryKey: queryKeys.host.overview(env), queryFn: skipToken, staleTime: Infinity })
    .data;
}
