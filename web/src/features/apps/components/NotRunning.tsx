import { Center, Text } from '@mantine/core';

/** What a tab shows when its data only exists while the app runs: 'Start the app to view {what}'. */
export function NotRunning({ what }: { what: 'ports' | 'processes' | 'logs' | 'stats' | 'terminal' }) {
  return (
    <Center py="xl">
      <Text c="dimmed">
        {what === 'terminal' ? 'Start the app to open a terminal' : `Start the app to view ${what}`}
      </Text>
    </Center>
  );
}
