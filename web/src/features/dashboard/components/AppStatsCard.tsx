import { memo } from 'react';
import { Anchor, Card, Group, Loader, Stack, Text } from '@mantine/core';
import { Link } from 'react-router-dom';
import type { HealthStatus } from '@berth/contract';
import { HealthBadge } from '../../../components/HealthBadge';
import { useAppCardNumbers } from '../api/live-stats';
import { UsageBar } from './UsageBar';
import { Sparkline } from './Sparkline';

/**
 * One running app on the dashboard: its name (opens the app) and health, its latest CPU and
 * memory once measured, and its last 10 minutes of CPU. It reads its own numbers from the
 * dashboard stream (as shown: whole percents), so it re-renders only when they change; the
 * sparkline below follows every sample by itself.
 */
export const AppStatsCard = memo(function AppStatsCard({
  name,
  health = 'none',
}: {
  name: string;
  health?: HealthStatus;
}) {
  const numbers = useAppCardNumbers(name);
  return (
    <Card withBorder padding="md" data-testid="app-card" data-measured={numbers ? 'true' : 'false'} h="100%">
      <Stack gap="sm">
        <Group justify="space-between" wrap="nowrap" gap="xs">
          <Anchor component={Link} to={`/apps/${encodeURIComponent(name)}/info`} fw={600} size="lg" truncate>
            {name}
          </Anchor>
          <HealthBadge health={health} />
        </Group>
        {numbers ? (
          <>
            <UsageBar label="CPU" percent={numbers.cpu} color="blue" />
            <UsageBar label="Memory" percent={numbers.mem} color="grape" detail={numbers.memory} />
            <Sparkline name={name} />
          </>
        ) : (
          <Group gap="xs" mih={88}>
            <Loader size="xs" />
            <Text size="sm" c="dimmed" role="status">
              Measuring CPU and memory…
            </Text>
          </Group>
        )}
      </Stack>
    </Card>
  );
});
