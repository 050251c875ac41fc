import { useEffect, useRef } from 'react';
import { Badge, Card, Group, ScrollArea, Text, Title } from '@mantine/core';
import { skipToken, useQuery, useQueryClient } from '@tanstack/react-query';
import { ActionStreamEvent, swarmApi } from '@berth/contract';
import { buildUrl } from '../../../lib/api-client';
import { useEnvironment } from '../../../lib/environment';
import { useEventStream } from '../../../lib/event-stream';
import { foldOutput, parseActionStream, type ActionOutput, type StreamItem } from '../../../lib/action-stream';
import { queryKeys } from '../../../lib/query-keys';

/** The docker CLI's output of the stack's running (or last) deploy or removal, live, kept in the query cache. */
export function StackOutput({ name }: { name: string }) {
  const env = useEnvironment();
  const queryClient = useQueryClient();
  const key = queryKeys.swarm.stackOutput(env, name);
  useEventStream<StreamItem>(buildUrl(swarmApi.stackStream, { env, params: { name } }), {
    event: [ActionStreamEvent.state, ActionStreamEvent.output, ActionStreamEvent.end],
    parse: parseActionStream,
    onBatch: (batch) => queryClient.setQueryData<ActionOutput>(key, (prev) => foldOutput(prev, batch)),
  });
  const output = useQuery<ActionOutput>({ queryKey: key, queryFn: skipToken, staleTime: Infinity }).data;
  const viewport = useRef<HTMLDivElement>(null);
  const text = output?.output ?? '';
  useEffect(() => {
    viewport.current?.scrollTo({ top: viewport.current.scrollHeight });
  }, [text]);
  if (!output?.action) return null;
  return (
    <Card withBorder aria-label="Stack output">
      <Group justify="space-between" mb="xs">
        <Title order={3} size="h5">{`docker stack ${output.action} ${name}`}</Title>
        {output.running ? (
          <Badge>running</Badge>
        ) : (
          output.ended && <Badge color={output.ended.ok ? 'green' : 'red'}>{output.ended.ok ? 'done' : 'failed'}</Badge>
        )}
      </Group>
      <ScrollArea.Autosize mah={300} viewportRef={viewport}>
        <Text component="pre" size="xs" ff="monospace" style={{ whiteSpace: 'pre-wrap', margin: 0 }}>
          {text}
        </Text>
      </ScrollArea.Autosize>
    </Card>
  );
}
