import { useState } from 'react';
import { Badge, Button, Group, Modal, Select, Stack, Table, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconDownload } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { AuditEntry } from '@berth/contract';
import { DataTable, type Column } from '../../../components/DataTable';
import { formatDate } from '../../../lib/format';
import { notifyError } from '../../../lib/notify';
import { auditQuery, exportAudit, type AuditFilter } from '../api';
import { auditSentence } from '../sentence';

/** The call behind a sentence: the raw route, client and the API reference's summary. */
function Details({ entry, onClose }: { entry: AuditEntry; onClose: () => void }) {
  const rows: [string, string][] = [
    ['Time', formatDate(entry.time)],
    ['User', entry.user ?? '—'],
    ['Client', entry.client],
    ['Call', `${entry.method} ${entry.route}`],
    ['Target', entry.target ?? '—'],
    ['Status', String(entry.status)],
    ['Summary', entry.summary],
  ];
  return (
    <Modal opened onClose={onClose} title="Audit entry" size="lg">
      <Text mb="sm">{auditSentence(entry)}</Text>
      <Table aria-label="Audit entry details" withRowBorders={false}>
        <Table.Tbody>
          {rows.map(([k, v]) => (
            <Table.Tr key={k}>
              <Table.Th w={90}>{k}</Table.Th>
              <Table.Td style={{ wordBreak: 'break-word' }} ff={k === 'Call' ? 'monospace' : undefined}>
                {v}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Modal>
  );
}

const columns = (open: (e: AuditEntry) => void): Column<AuditEntry>[] => [
  { key: 'time', header: 'Time', render: (e) => formatDate(e.time), sortValue: (e) => e.id, width: 190 },
  {
    key: 'what',
    header: 'What happened',
    render: auditSentence,
    searchValue: (e) => `${auditSentence(e)} ${e.method} ${e.route} ${e.client}`,
  },
  {
    key: 'status',
    header: 'Outcome',
    render: (e) => (
      <Badge color={e.status < 400 ? 'green' : 'red'} variant="light">
        {e.status}
      </Badge>
    ),
    width: 100,
  },
  {
    key: 'details',
    header: 'Details',
    noSearch: true,
    width: 90,
    render: (e) => (
      <Button size="compact-xs" variant="subtle" onClick={() => open(e)} aria-label={`Details of entry ${e.id}`}>
        Details
      </Button>
    ),
  },
];
const RANGES = [
  { value: '1', label: 'Last 24 hours' },
  { value: '7', label: 'Last 7 days' },
  { value: '30', label: 'Last 30 days' },
  { value: '90', label: 'Last 90 days' },
];

/** Settings → Audit log: who changed what, one sentence an entry (the call in its details), filtered, with CSV and JSON export. Read-only. */
export function AuditLog() {
  const [filter, setFilter] = useState<AuditFilter>({ days: 7 });
  const [debounced] = useDebouncedValue(filter, 400);
  const [shown, setShown] = useState<AuditEntry | null>(null);
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
        columns={columns(setShown)}
        rowKey={(e) => String(e.id)}
        loading={entries.isPending}
        defaultSort={{ key: 'time', direction: 'desc' }}
        emptyText="Nothing was changed in this time range."
      />
      {shown && <Details entry={shown} onClose={() => setShown(null)} />}
    </Stack>
  );
}
