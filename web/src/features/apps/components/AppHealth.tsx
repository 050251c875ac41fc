import { Code, Group, Stack, Table, Text } from '@mantine/core';
import type { App } from '@berth/contract';
import { Section } from '../../../components/Section';
import { formatDate } from '../../../lib/format';
import { healthcheckCommand, healthDuration } from '../model';
import { HealthBadge } from '../../../components/HealthBadge';

/** The healthcheck (command, interval, timeout, retries) and its last probes (the engine keeps five). */
export function AppHealth({ app }: { app: App }) {
  const check = app.Config.Healthcheck;
  const command = healthcheckCommand(check?.Test);
  const probes = [...(app.State.Health?.Log ?? [])].reverse();
  return (
    <Section title="Health">
      {!command ? (
        <Text c="dimmed" size="sm">
          No healthcheck: the engine only knows whether the app runs.
        </Text>
      ) : (
        <Stack gap="sm">
          <Group gap="lg">
            <HealthBadge health={app.health} showNone />
            <Text size="sm">Interval {healthDuration(check?.Interval, '30 s')}</Text>
            <Text size="sm">Timeout {healthDuration(check?.Timeout, '30 s')}</Text>
            <Text size="sm">Retries {check?.Retries || '3 (default)'}</Text>
            {app.State.Health?.FailingStreak ? (
              <Text size="sm" c="red">
                Failing {app.State.Health.FailingStreak} in a row
              </Text>
            ) : null}
          </Group>
          <Code block data-testid="health-command">
            {command}
          </Code>
          {probes.length === 0 ? (
            <Text c="dimmed" size="sm">
              No probe has run yet{app.State.Running ? '' : ' (the app is not running)'}.
            </Text>
          ) : (
            <Table aria-label="Last probes" striped>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Started</Table.Th>
                  <Table.Th>Exit code</Table.Th>
                  <Table.Th>Output</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {probes.map((p) => (
                  <Table.Tr key={p.Start}>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDate(p.Start)}</Table.Td>
                    <Table.Td>
                      <Text size="sm" c={p.ExitCode === 0 ? 'green' : 'red'}>
                        {p.ExitCode}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm" ff="monospace" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
                        {p.Output?.trim() || '-'}
                      </Text>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
        </Stack>
      )}
    </Section>
  );
}
