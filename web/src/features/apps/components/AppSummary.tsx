import { Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import type { App } from '@berth/contract';
import { formatDate } from '../../../lib/format';
import { AppStatusBadge } from './AppStatusBadge';
import { ImageWithNewer } from './NewerVersion';

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={2}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text size="sm" component="div" style={{ wordBreak: 'break-all' }}>
        {children}
      </Text>
    </Stack>
  );
}

/** Name, image, short id, status (and when it was created). */
export function AppSummary({ app }: { app: App }) {
  return (
    <Paper withBorder p="md">
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 5 }}>
        <Field label="Name">{app.name}</Field>
        <Field label="Image">
          {/* One line: an image reference broken mid-word is hard to read; the title has it whole. */}
          <ImageWithNewer app={app} truncate />
        </Field>
        <Field label="Short ID">
          <Text span ff="monospace" size="sm">
            {app.short_id}
          </Text>
        </Field>
        <Field label="Status">
          <AppStatusBadge state={app.State} />
        </Field>
        <Field label="Created">{formatDate(app.Created)}</Field>
      </SimpleGrid>
    </Paper>
  );
}
