import { Code, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import type { Column } from './DataTable';
import { KeyValueTable } from './KeyValueTable';

export interface FieldDef {
  label: string;
  value: ReactNode;
  mono?: boolean;
}

/** The facts of one resource as a labelled grid (images, volumes, networks share it). */
export function FieldGrid({ fields }: { fields: readonly FieldDef[] }) {
  return (
    <Paper withBorder p="md">
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
        {fields.map((f) => (
          <Stack gap={2} key={f.label}>
            <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
              {f.label}
            </Text>
            <Text size="sm" component="div" ff={f.mono ? 'monospace' : undefined} style={{ wordBreak: 'break-all' }}>
              {f.value === null || f.value === undefined || f.value === '' ? '-' : f.value}
            </Text>
          </Stack>
        ))}
      </SimpleGrid>
    </Paper>
  );
}

type Pair = { key: string; value: string };

const mono = (text: string) => (
  <Code bg="transparent" style={{ wordBreak: 'break-all', whiteSpace: 'pre-wrap' }}>
    {text}
  </Code>
);

/** A map (labels, options) as a two-column table. */
export function PairsTable({
  label,
  pairs,
  keyHeader = 'Name',
  emptyText,
}: {
  label: string;
  pairs: Record<string, string> | null | undefined;
  keyHeader?: string;
  emptyText?: string;
}) {
  const rows: Pair[] = Object.entries(pairs ?? {}).map(([key, value]) => ({ key, value }));
  const columns: Column<Pair>[] = [
    { key: 'key', header: keyHeader, sortable: true, render: (p) => mono(p.key) },
    { key: 'value', header: 'Value', render: (p) => mono(p.value) },
  ];
  return (
    <KeyValueTable
      label={label}
      rows={rows}
      columns={columns}
      rowKey={(p) => p.key}
      emptyText={emptyText ?? `No ${label.toLowerCase()}.`}
    />
  );
}
