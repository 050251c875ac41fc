import { Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import type { App } from '@berth/contract';
import { formatDate } from '../../../lib/format';
import { AppStatusBadge } from './AppStatusBadge';

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
          <Text span size="sm" display="block" truncate="end" title={app.Config.Image} data-testid="app-image">
            {app.Config.Image}
          </Text>
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
