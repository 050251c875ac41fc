import { useEffect, useRef } from 'react';
import { Badge, Card, CloseButton, Group, ScrollArea, Text, Title } from '@mantine/core';
import { formatDate } from '../../../lib/format';
import type { ActionOutput } from '../../../lib/action-stream';
import { runningText } from '../model';

/** When the action started (while it runs) or ended, so old output is not read as new. */
function When({ output }: { output: ActionOutput }) {
  const at = output.running ? output.startedAt : (output.ended?.endedAt ?? output.endedAt);
  if (!at) return null;
  return (
    <Text size="xs" c="dimmed" data-testid="action-output-time">
      {output.running ? 'started' : 'ended'} <time dateTime={at}>{formatDate(at)}</time>
    </Text>
  );
}

/**
 * The compose CLI's output of the running (or last) action, following it as it arrives. A
 * finished action's card shows when it ended and can be dismissed.
 */
export function ActionOutputCard({ output, onDismiss }: { output: ActionOutput | undefined; onDismiss: () => void }) {
  const viewport = useRef<HTMLDivElement>(null);
  const text = output?.output ?? '';
  useEffect(() => {
    viewport.current?.scrollTo({ top: viewport.current.scrollHeight });
  }, [text]);
  if (!output?.action || (output.dismissed && !output.running)) return null;
  const what = output.service ? `${output.action} ${output.service}` : output.action;
  return (
    <Card withBorder mb="md" aria-label="Action output">
      <Group justify="space-between" mb="xs" wrap="nowrap" align="flex-start">
        <div>
          <Title order={3} size="h5">
            {output.running ? runningText(what) : `docker-compose ${what}`}
          </Title>
          <When output={output} />
        </div>
        <Group gap="xs" wrap="nowrap">
          {!output.running && output.ended && (
            <Badge color={output.ended.ok ? 'green' : 'red'}>{output.ended.ok ? 'done' : 'failed'}</Badge>
          )}
          {!output.running && <CloseButton aria-label="Dismiss action output" onClick={onDismiss} />}
        </Group>
      </Group>
      {/* Focusable so the keyboard can scroll a long output (axe: scrollable-region-focusable). */}
      <ScrollArea.Autosize
        mah={300}
        viewportRef={viewport}
        viewportProps={{ tabIndex: 0, 'aria-label': 'Compose output' }}
      >
        <Text
          component="pre"
          size="xs"
          ff="monospace"
          m={0}
          style={{ whiteSpace: 'pre-wrap' }}
          data-testid="action-output"
        >
          {text || (output.running ? 'Waiting for output…' : 'No output.')}
        </Text>
      </ScrollArea.Autosize>
    </Card>
  );
}
