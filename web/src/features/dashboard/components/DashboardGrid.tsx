import { useMemo, useState } from 'react';
import { Center, Group, Loader, Stack, Text, TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import type { HealthStatus } from '@berth/contract';
import { failedReadText } from '../../apps';
import { useDashboardApps } from '../api/live-stats';
import { CardGrid } from './CardGrid';

/**
 * One card per running app, sorted by name, with a name filter: `running` holds the apps the list
 * says run (undefined until it has answered), and the dashboard stream adds those it reports. An
 * app that runs but has no sample yet gets a card that says so: a number is shown only once it
 * was measured. Only the cards on screen (and a margin) are in the page (see CardGrid), so the
 * filter is how a keyboard or screen-reader user, or the browser's find, reaches a far one fast.
 */
export function DashboardGrid({
  running,
  error,
  health = {},
}: {
  running: readonly string[] | undefined;
  /** Why the list could not be read: an empty grid then says that, never that nothing runs. */
  error?: unknown;
  /** Each app's health (from the list). */
  health?: Readonly<Record<string, HealthStatus>>;
}) {
  const streamed = useDashboardApps();
  const [query, setQuery] = useState('');
  const names = useMemo(
    () => [...new Set([...(running ?? []), ...(streamed ?? [])])].sort((a, b) => a.localeCompare(b)),
    [running, streamed],
  );
  const shown = useMemo(() => {
    const q = query.trim().toLowerCase();
    return q ? names.filter((n) => n.toLowerCase().includes(q)) : names;
  }, [names, query]);
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
    <>
      <Group mb="sm" gap="md" wrap="wrap">
        <TextInput
          aria-label="Filter running applications"
          placeholder="Filter by name"
          leftSection={<IconSearch size={16} />}
          value={query}
          onChange={(e) => setQuery(e.currentTarget.value)}
          style={{ flex: 1, minWidth: 180, maxWidth: 420 }}
        />
        <Text size="sm" c="dimmed" role="status" data-testid="app-card-count">
          {shown.length === names.length
            ? `${names.length} running`
            : `${shown.length} of ${names.length} running match`}
        </Text>
      </Group>
      {shown.length === 0 ? (
        <Center py="lg">
          <Text c="dimmed">No running application matches “{query.trim()}”.</Text>
        </Center>
      ) : (
        <CardGrid names={shown} health={health} />
      )}
    </>
  );
}
