import { Paper, SimpleGrid, Text, Group, Title } from '@mantine/core';
import type { StatsSample } from '@berth/contract';
import { formatBytes, formatPercent } from '../../../lib/format';
import { seriesWithGaps, STATS_CAP } from '../api/live-model';
import { LineChart } from './LineChart';

function ChartCard({ title, values, color, detail }: { title: string; values: (number | null)[]; color: string; detail?: string }) {
  const measured = values.filter((v): v is number => v !== null);
  const current = measured.at(-1);
  const max = measured.length ? Math.max(...measured) : undefined;
  return (
    <Paper withBorder p="md">
      <Group justify="space-between" mb="sm" wrap="wrap">
        <Title order={3} size="h5">
          {title}
        </Title>
        <Text size="sm" data-testid={`${title.toLowerCase()}-numbers`}>
          Current <b>{formatPercent(current)}</b>
          {detail ? ` (${detail})` : ''} · Max <b>{formatPercent(max)}</b>
        </Text>
      </Group>
      <LineChart label={`${title} usage chart`} values={values} capacity={STATS_CAP} color={color} />
    </Paper>
  );
}

/** CPU and memory of one app over its last 300 samples, on a 0-100 % scale. */
export function StatsCharts({ samples }: { samples: StatsSample[] | undefined }) {
  if (!samples || samples.length === 0) {
    return (
      <Text c="dimmed" py="xl" ta="center">
        Waiting for the first sample…
      </Text>
    );
  }
  const last = samples[samples.length - 1]!;
  return (
    <SimpleGrid cols={{ base: 1, lg: 2 }}>
      <ChartCard title="CPU" values={seriesWithGaps(samples, (s) => s.cpu_percent)} color="var(--mantine-color-blue-6)" />
      <ChartCard title="Memory" values={seriesWithGaps(samples, (s) => s.mem_percent)} color="var(--mantine-color-grape-6)" detail={`${formatBytes(last.mem_current)} / ${formatBytes(last.mem_total)}`} />
    </SimpleGrid>
  );
}
