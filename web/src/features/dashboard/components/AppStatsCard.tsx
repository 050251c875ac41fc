import { Anchor, Card, Group, Loader, Stack, Text } from '@mantine/core';
import { Link } from 'react-router-dom';
import type { StatsSample } from '@berth/contract';
import { formatBytes } from '../../../lib/format';
import { UsageBar } from './UsageBar';

/** One running app on the dashboard: its name (opens the app) and its latest CPU and memory, once measured. */
export function AppStatsCard({ name, sample }: { name: string; sample: StatsSample | undefined }) {
  return (
    <Card withBorder padding="md" data-testid="app-card" data-measured={sample ? 'true' : 'false'}>
      <Stack gap="sm">
        <Anchor component={Link} to={`/apps/${encodeURIComponent(name)}/info`} fw={600} size="lg" truncate>
          {name}
        </Anchor>
        {sample ? (
          <>
            <UsageBar label="CPU" percent={sample.cpu_percent} color="blue" />
            <UsageBar label="Memory" percent={sample.mem_percent} color="grape" detail={`${formatBytes(sample.mem_current)} / ${formatBytes(sample.mem_total)}`} />
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
