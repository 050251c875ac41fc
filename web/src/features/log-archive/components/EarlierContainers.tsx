import { useState } from 'react';
import { Anchor, Button, Card, Code, Group, Table, Text, Title } from '@mantine/core';
import type { LogArchive } from '@berth/contract';
import { LogPanel } from '../../../components/logs';
import { useEnvironment } from '../../../lib/environment';
import { archiveUrls, useLogArchives } from '../api';
import { howItEnded, keptUntil, timeSpan } from '../model';

/**
 * "Earlier containers of this app": the last lines Berth kept of the app's containers that
 * stopped, were replaced or removed, each opened in the log view (search, levels, download).
 * Nothing when none were kept, unless `always` (a removed app's page says so).
 */
export function EarlierContainers({ name, always = false }: { name: string; always?: boolean }) {
  const env = useEnvironment();
  const list = useLogArchives(name);
  const [open, setOpen] = useState<LogArchive | null>(null);
  const archives = list.data?.archives ?? [];
  if (archives.length === 0 && !always) return null;
  const urls = open ? archiveUrls(env, name, open.id) : null;
  return (
    <Card withBorder>
      <Title order={3} size="h5" mb={4}>
        Earlier containers of this app
      </Title>
      <Text size="xs" c="dimmed" mb="sm">
        The last lines of each container that stopped, was replaced or removed, kept for {list.data?.retentionDays ?? 7}{' '}
        days.
      </Text>
      {archives.length === 0 ? (
        <Text size="sm">{list.isPending ? 'Loading…' : `Berth kept no log lines of ${name}.`}</Text>
      ) : (
        <Table.ScrollContainer minWidth={720} scrollAreaProps={{ viewportProps: { tabIndex: 0 } }}>
          <Table aria-label="Earlier containers">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Container</Table.Th>
                <Table.Th>Time span</Table.Th>
                <Table.Th>How it ended</Table.Th>
                <Table.Th>Lines</Table.Th>
                <Table.Th>Kept until</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {archives.map((a) => (
                <Table.Tr key={a.id} bg={open?.id === a.id ? 'var(--mantine-color-default-hover)' : undefined}>
                  <Table.Td>
                    <Code title={`${a.containerId} · ${a.image}`}>{a.containerId.slice(0, 12)}</Code>
                    {a.service && (
                      <Text span size="xs" c="dimmed" ml={6}>
                        {a.project}/{a.service}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>{timeSpan(a)}</Table.Td>
                  <Table.Td>{howItEnded(a)}</Table.Td>
                  <Table.Td>{a.lines}</Table.Td>
                  <Table.Td>{keptUntil(a, list.data!.retentionDays)}</Table.Td>
                  <Table.Td>
                    <Group gap="xs" wrap="nowrap">
                      <Button size="compact-xs" variant="light" onClick={() => setOpen(open?.id === a.id ? null : a)}>
                        {open?.id === a.id ? 'Close' : 'Open'}
                      </Button>
                      <Anchor size="xs" href={archiveUrls(env, name, a.id).download({ timestamps: '1' })}>
                        Download
                      </Anchor>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {open && urls && (
        <div aria-label={`Kept log of ${open.containerId.slice(0, 12)}`} role="region">
          <Text size="sm" fw={600} mt="md" mb="xs">
            {open.containerId.slice(0, 12)} · {timeSpan(open)}
          </Text>
          <LogPanel key={open.id} streamUrl={urls.stream} downloadUrl={urls.download} initialTail="all" />
        </div>
      )}
    </Card>
  );
}
