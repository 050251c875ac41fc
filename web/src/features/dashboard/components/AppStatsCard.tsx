import { Anchor, Card, Stack } from '@mantine/core';
import { Link } from 'react-router-dom';
import type { StatsSample } from '@berth/contract';
import { formatBytes } from '../../../lib/format';
import { UsageBar } from './UsageBar';

/** One running app on the dashboard: its name (opens the app) and its latest CPU and memory. */
export function AppStatsCard({ sample }: { sample: StatsSample }) {
  return (
    <Card withBorder padding="md" data-testid="app-card">
      <Stack gap="sm">
        <Anchor component={Link} to={`/apps/${encodeURIComponent(sample.name)}/info`} fw={600} size="lg" truncate>
          {sample.name}
        </Anchor>
        <UsageBar label="CPU" percent={sample.cpu_percent} color="blue" />
        <UsageBar label="Memory" percent={sample.mem_percent} color="grape" detail={`${formatBytes(sample.mem_current)} / ${formatBytes(sample.mem_total)}`} />
      </Stack>
    </Card>
  );
}
