import { Center, Loader, SimpleGrid, Stack, Text } from '@mantine/core';
import type { HealthStatus, StatsSample } from '@berth/contract';
import { failedReadText } from '../../apps';
import { AppStatsCard } from './AppStatsCard';

/**
 * One card per running app, sorted by name; `series` holds each app's recent samples and
 * `running` the apps the list says run (undefined until it has answered). An app that runs but
 * has no sample yet gets a card that says so: a number is shown only once it was measured.
 */
export function DashboardGrid({
  series,
  running,
  error,
  health = {},
}: {
  series: Record<string, StatsSample[]>;
  running: readonly string[] | undefined;
  /** Why the list could not be read: an empty grid then says that, never that nothing runs. */
  error?: unknown;
  /** Each app's health (from the list). */
  health?: Readonly<Record<string, HealthStatus>>;
}) {
  const names = [...new Set([...(running ?? []), ...Object.keys(series).filter((n) => series[n]?.length)])].sort(
    (a, b) => a.localeCompare(b),
  );
  if (names.length === 0) {
    return (
      <Center py="xl">
        {error ? (
          <Text c="dimmed">{failedReadText(error)}</Text>
        ) : running === undefined ? (
          <Stack align="center" gap="xs">
            <Loader aria-label="Loading applications" />
            <Text c="dimmed">Loading running applications…</Text>
          </Stack>
        ) : (
          <Text c="dimmed">No running applications yet.</Text>
        )}
      </Center>
    );
  }
  return (
    <SimpleGrid cols={{ base: 1, sm: 2, lg: 3, xl: 4 }}>
      {names.map((name) => (
        <AppStatsCard key={name} name={name} samples={series[name]} health={health[name]} />
      ))}
    </SimpleGrid>
  );
}
