import { skipToken, useQuery, useQueryClient } from '@tanstack/react-query';
import { hostApi, StreamEvent, type HostOverview } from '@berth/contract';
import { useEventStream } from '../../../lib/event-stream';

const hostKey = ['host-live', 'overview'] as const;

/** The host overview, kept current by its stream (one event every two seconds) while mounted. */
export function useHostOverview(): HostOverview | undefined {
  const queryClient = useQueryClient();
  useEventStream<HostOverview>(hostApi.stream.path, {
    event: [StreamEvent.update],
    parse: (data) => JSON.parse(data) as HostOverview,
    onBatch: (batch) => {
      const last = batch.at(-1);
      if (last) queryClient.setQueryData(hostKey, last);
    },
  });
  return useQuery<HostOverview>({ queryKey: hostKey, queryFn: skipToken, staleTime: Infinity }).data;
}
