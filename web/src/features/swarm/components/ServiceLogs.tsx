import { Box, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { swarmApi } from '@berth/contract';
import { buildUrl } from '../../../lib/api-client';
import { useEnvironment } from '../../../lib/environment';
import { useEventStream } from '../../../lib/event-stream';
import { swarmKeys } from '../api';

/** At most this many lines are kept; the oldest go first. */
const KEEP = 2000;

/** A service's log (all its tasks): the last lines, then new ones as they come; kept in the query cache. */
export function ServiceLogs({ id }: { id: string }) {
  const queryClient = useQueryClient();
  const key = [...swarmKeys.all(useEnvironment()), 'logs', id];
  useEventStream<string>(buildUrl(swarmApi.logs, { id }), {
    parse: (data) => data,
    frameAligned: false,
    onOpen: () => queryClient.setQueryData<string[]>(key, []),
    onBatch: (batch) => queryClient.setQueryData<string[]>(key, (prev = []) => [...prev, ...batch.flatMap((b) => b.split(/\r\n|\r|\n/))].slice(-KEEP)),
  });
  const lines = useQuery({ queryKey: key, queryFn: (): string[] => [], enabled: false }).data ?? [];
  if (lines.length === 0) return <Text c="dimmed">No log lines yet.</Text>;
  return (
    <Box component="pre" ff="monospace" fz="xs" mah={600} style={{ overflow: 'auto', whiteSpace: 'pre-wrap', wordBreak: 'break-all' }} tabIndex={0} aria-label="Service log">
      {lines.join('\n')}
    </Box>
  );
}
