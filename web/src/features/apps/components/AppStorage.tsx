import { Group, Stack, Tabs, Text } from '@mantine/core';
import { IconArrowRight } from '@tabler/icons-react';
import type { App } from '@berth/contract';
import { Section } from '../../../components/Section';

/** One tab per mount, named by where it is mounted: 'Source → Destination'. */
export function AppStorage({ app }: { app: App }) {
  const mounts = app.Mounts ?? [];
  return (
    <Section title="Storage">
      {mounts.length === 0 ? (
        <Text c="dimmed" size="sm">
          No volumes or bind mounts.
        </Text>
      ) : (
        <Tabs defaultValue={mounts[0]!.Destination}>
          <Tabs.List>
            {mounts.map((m) => (
              <Tabs.Tab key={m.Destination} value={m.Destination}>
                {m.Destination}
              </Tabs.Tab>
            ))}
          </Tabs.List>
          {mounts.map((m) => (
            <Tabs.Panel key={m.Destination} value={m.Destination} pt="sm">
              <Stack gap={4}>
                <Group gap="xs" wrap="nowrap">
                  <Text ff="monospace" size="sm" style={{ wordBreak: 'break-all' }}>
                    {m.Source || m.Name || '-'}
                  </Text>
                  <IconArrowRight size={16} style={{ flexShrink: 0 }} />
                  <Text ff="monospace" size="sm" style={{ wordBreak: 'break-all' }}>
                    {m.Destination}
                  </Text>
                </Group>
                <Text size="xs" c="dimmed">
                  {m.Type ?? 'mount'}
                  {m.Type === 'volume' && m.Name ? ` ${m.Name}` : ''}
                </Text>
              </Stack>
            </Tabs.Panel>
          ))}
        </Tabs>
      )}
    </Section>
  );
}
