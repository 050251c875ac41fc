import { Center, SimpleGrid, Text } from '@mantine/core';
import type { StatsSample } from '@berth/contract';
import { AppStatsCard } from './AppStatsCard';

/** One card per running app, sorted by name; `series` holds each app's recent samples. */
export function DashboardGrid({ series }: { series: Record<string, StatsSample[]> }) {
  const latest = Object.keys(series)
    .sort((a, b) => a.localeCompare(b))
    .map((name) => series[name]?.at(-1))
    .filter((s): s is StatsSample => s !== undefined);
  if (latest.length === 0) {
    return (
      <Center py="xl">
        <Text c="dimmed">No running applications yet.</Text>
      </Center>
    );
  }
  return (
    <SimpleGrid cols={{ base: 1, sm: 2, lg: 3, xl: 4 }}>
      {latest.map((s) => (
        <AppStatsCard key={s.name} sample={s} />
      ))}
    </SimpleGrid>
  );
}
