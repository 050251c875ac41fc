import { Group, Text } from '@mantine/core';
import { useAppLogs, useAppStats } from '../api/live';
import { LOG_CAP } from '../api/live-model';
import { LogView } from './LogView';
import { StatsCharts } from './StatsCharts';

/** Opens the app's log stream while mounted (the page mounts it only while the app runs). */
export function AppLogs({ name }: { name: string }) {
  const buffer = useAppLogs(name);
  return (
    <>
      <Group justify="flex-end" mb={4}>
        <Text size="xs" c="dimmed">
          {buffer?.lines.length ?? 0} lines{buffer && buffer.dropped > 0 ? ` (the newest ${LOG_CAP} are kept)` : ''}
        </Text>
      </Group>
      <LogView buffer={buffer} />
    </>
  );
}

/** Opens the app's stats stream while mounted. */
export function AppStats({ name }: { name: string }) {
  return <StatsCharts samples={useAppStats(name)} />;
}
