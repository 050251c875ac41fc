import { useState } from 'react';
import { Badge, Button, Group, Select, Stack, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconDownload } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { AuditEntry } from '@berth/contract';
import { DataTable, type Column } from '../../../components/DataTable';
import { formatDate } from '../../../lib/format';
import { notifyError } from '../../../lib/notify';
import { auditQuery, exportAudit, type AuditFilter } from '../api';

const COLUMNS: Column<AuditEntry>[] = [
  { key: 'time', header: 'Time', render: (e) => formatDate(e.time), sortValue: (e) => e.id, width: 190 },
  { key: 'user', header: 'User', render: (e) => e.user ?? '—' },
  { key: 'client', header: 'Client' },
  {
    key: 'method',
    header: 'Call',
    render: (e) => `${e.method} ${e.route}`,
    searchValue: (e) => `${e.method} ${e.route}`,
  },
  { key: 'target', header: 'Target', render: (e) => e.target ?? '—' },
  {
    key: 'status',
    header: 'Outcome',
    render: (e) => (
      <Badge color={e.status < 400 ? 'green' : 'red'} variant="light">
        {e.status}
      </Badge>
    ),
  },
  { key: 'summary', header: 'Summary' },
];
const RANGES = [
  { value: '1', label: 'Last 24 hours' },
  { value: '7', label: 'Last 7 days' },
  { value: '30', label: 'Last 30 days' },
  { value: '90', label: 'Last 90 days' },
];

/** Settings → Audit log: who changed what, filtered, with CSV and JSON export. Read-only. */
export function AuditLog() {
  const [filter, setFilter] = useState<AuditFilter>({ days: 7 });
  const [debounced] = useDebouncedValue(filter, 400);
  const entries = useQuery(auditQuery(debounced));
  const download = (format: 'csv' | 'json') => exportAudit(debounced, format).catch(notifyError);
  return (
    <Stack>
      <Group align="end">
        <TextInput
          label="User"
          value={filter.user ?? ''}
          onChange={(e) => setFilter({ ...filter, user: e.currentTarget.value })}
        />
        <TextInput
          label="Action"
          placeholder="e.g. DELETE or /api/apps"
          value={filter.action ?? ''}
          onChange={(e) => setFilter({ ...filter, action: e.currentTarget.value })}
        />
        <TextInput
          label="Target"
          value={filter.target ?? ''}
          onChange={(e) => setFilter({ ...filter, target: e.currentTarget.value })}
        />
        <Select
          label="Time range"
          data={RANGES}
          value={String(filter.days)}
          allowDeselect={false}
          onChange={(v) => setFilter({ ...filter, days: Number(v ?? 7) })}
        />
        <Button variant="default" leftSection={<IconDownload size={16} />} onClick={() => void download('csv')}>
          Export CSV
        </Button>
        <Button variant="default" leftSection={<IconDownload size={16} />} onClick={() => void download('json')}>
          Export JSON
        </Button>
      </Group>
      <DataTable
        label="Audit log"
        data={entries.data}
        columns={COLUMNS}
        rowKey={(e) => String(e.id)}
        loading={entries.isPending}
        defaultSort={{ key: 'time', direction: 'desc' }}
        emptyText="Nothing was changed in this time range."
      />
    </Stack>
  );
}
