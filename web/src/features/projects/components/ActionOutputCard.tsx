import { useEffect, useRef } from 'react';
import { Badge, Card, Group, ScrollArea, Text, Title } from '@mantine/core';
import type { ActionOutput } from '../api/live';
import { runningText } from '../model';

/** The compose CLI's output of the running (or last) action, following it as it arrives. */
export function ActionOutputCard({ output }: { output: ActionOutput | undefined }) {
  const viewport = useRef<HTMLDivElement>(null);
  const text = output?.output ?? '';
  useEffect(() => {
    viewport.current?.scrollTo({ top: viewport.current.scrollHeight });
  }, [text]);
  if (!output?.action) return null;
  const what = output.service ? `${output.action} ${output.service}` : output.action;
  return (
    <Card withBorder mb="md" aria-label="Action output">
      <Group justify="space-between" mb="xs">
        <Title order={3} size="h5">
          {output.running ? runningText(what) : `docker-compose ${what}`}
        </Title>
        {!output.running && output.ended && <Badge color={output.ended.ok ? 'green' : 'red'}>{output.ended.ok ? 'done' : 'failed'}</Badge>}
      </Group>
      <ScrollArea.Autosize mah={300} viewportRef={viewport}>
        <Text component="pre" size="xs" ff="monospace" m={0} style={{ whiteSpace: 'pre-wrap' }} data-testid="action-output">
          {text || (output.running ? 'Waiting for output…' : 'No output.')}
        </Text>
      </ScrollArea.Autosize>
    </Card>
  );
}
