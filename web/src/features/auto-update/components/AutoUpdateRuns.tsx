import { Alert, Badge, Button, Group, Stack, Table, Text } from '@mantine/core';
import { IconPlayerPlay } from '@tabler/icons-react';
import { autoUpdateApi, type AutoUpdateItem } from '@berth/contract';
import { Can } from '../../../components/RoleGate';
import { Section } from '../../../components/Section';
import { formatDate } from '../../../lib/format';
import { errorMessage } from '../../../lib/notify';
import { useAutoUpdateRuns, useRunAutoUpdate } from '../api';

const RESULT: Record<AutoUpdateItem['result'], { color: string; label: string }> = {
  up_to_date: { color: 'gray', label: 'up to date' },
  update_available: { color: 'blue', label: 'update available' },
  updated: { color: 'green', label: 'updated' },
  rolled_back: { color: 'orange', label: 'rolled back' },
  failed: { color: 'red', label: 'failed' },
};

/** One app's outcome as a badge (the reason in its title). */
export function ResultBadge({ item }: { item: Pick<AutoUpdateItem, 'result' | 'reason' | 'to_tag'> }) {
  const r = RESULT[item.result];
  return (
    <Badge color={r.color} variant="light" tt="none" title={item.reason ?? undefined}>
      {item.to_tag ? `${r.label}: ${item.to_tag}` : r.label}
    </Badge>
  );
}

/** Run now and the run history (newest first). */
export function AutoUpdateRuns() {
  const runs = useAutoUpdateRuns();
  const run = useRunAutoUpdate();
  return (
    <Section title="Runs">
      <Stack>
        <Group>
          <Can route={autoUpdateApi.run}>
            <Button
              leftSection={<IconPlayerPlay size={16} />}
              variant="default"
              loading={run.isPending}
              onClick={() => run.mutate()}
            >
              Run now
            </Button>
          </Can>
          <Text size="sm" c="dimmed">
            Checks every app and compose service with auto-update enabled.
          </Text>
        </Group>
        {runs.error && <Alert color="red">{errorMessage(runs.error)}</Alert>}
        <Table aria-label="Auto-update runs" verticalSpacing="xs">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Started</Table.Th>
              <Table.Th>Trigger</Table.Th>
              <Table.Th>Results</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {(runs.data ?? []).map((r) => (
              <Table.Tr key={r.id}>
                <Table.Td>{formatDate(r.started_at)}</Table.Td>
                <Table.Td>{r.trigger === 'manual' ? 'Run now' : r.trigger}</Table.Td>
                <Table.Td>
                  {r.finished_at === null && <Text size="sm">Running…</Text>}
                  {r.finished_at !== null && r.results.length === 0 && (
                    <Text size="sm">No app or compose service has auto-update enabled.</Text>
                  )}
                  <Stack gap={4}>
                    {r.results.map((item) => (
                      <Group key={item.name} gap="xs" wrap="nowrap">
                        <Text size="sm">{item.name}</Text>
                        <ResultBadge item={item} />
                        {item.reason && (
                          <Text size="xs" c="dimmed" lineClamp={2}>
                            {item.reason}
                          </Text>
                        )}
                      </Group>
                    ))}
                  </Stack>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
        {runs.data?.length === 0 && <Text c="dimmed">No runs yet.</Text>}
      </Stack>
    </Section>
  );
}
