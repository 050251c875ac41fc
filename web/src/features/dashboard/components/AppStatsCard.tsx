import { Anchor, Card, Group, Loader, Stack, Text } from '@mantine/core';
import { Link } from 'react-router-dom';
import type { HealthStatus, StatsSample } from '@berth/contract';
import { HealthBadge } from '../../../components/HealthBadge';
import { formatBytes } from '../../../lib/format';
import { UsageBar } from './UsageBar';
import { Sparkline } from './Sparkline';

/** One running app on the dashboard: its name (opens the app) and health, its latest CPU and memory once measured, and its last 10 minutes of CPU. */
export function AppStatsCard({
  name,
  samples,
  health = 'none',
}: {
  name: string;
  samples: StatsSample[] | undefined;
  health?: HealthStatus;
}) {
  const sample = samples?.at(-1);
  return (
    <Card withBorder padding="md" data-testid="app-card" data-measured={sample ? 'true' : 'false'}>
      <Stack gap="sm">
        <Group justify="space-between" wrap="nowrap" gap="xs">
          <Anchor component={Link} to={`/apps/${encodeURIComponent(name)}/info`} fw={600} size="lg" truncate>
            {name}
          </Anchor>
          <HealthBadge health={health} />
        </Group>
        {sample ? (
          <>
            <UsageBar label="CPU" percent={sample.cpu_percent} color="blue" />
            <UsageBar
              label="Memory"
              percent={sample.mem_percent}
              color="grape"
              detail={`${formatBytes(sample.mem_current)} / ${formatBytes(sample.mem_total)}`}
            />
            <Sparkline name={name} live={samples ?? []} />
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
}
