import type { ReactNode } from 'react';
import { Group, Text } from '@mantine/core';
import type { EngineEventRecord } from '@berth/contract';
import { DataTable, type Column } from '../../../components/DataTable';
import { formatDate } from '../../../lib/format';

const BAD = /^(die|oom|kill|health_status: unhealthy)$/;

const details = (e: EngineEventRecord) =>
  Object.entries(e.attributes)
    .filter(([k]) => k !== 'name')
    .map(([k, v]) => `${k.replace(/^com\.docker\.compose\./, 'compose.')}=${v}`)
    .join(' ');

const nameCell = (e: EngineEventRecord) => (
  <Text size="sm" style={{ wordBreak: 'break-all' }}>
    {e.name}
  </Text>
);

const COLUMNS: Column<EngineEventRecord>[] = [
  { key: 'time', header: 'Time', render: (e) => formatDate(e.time), sortValue: (e) => e.id, width: 190 },
  // Plain text that fits (badges were cut to "I.." at 1440 px); only a failure is coloured.
  {
    key: 'type',
    header: 'Type',
    render: (e) => (
      <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
        {e.type}
      </Text>
    ),
  },
  {
    key: 'action',
    header: 'Action',
    render: (e) => (
      <Text size="sm" c={BAD.test(e.action) ? 'red' : undefined} fw={BAD.test(e.action) ? 600 : undefined}>
        {e.action}
      </Text>
    ),
  },
  { key: 'name', header: 'Name', render: (e) => nameCell(e) },
  {
    key: 'details',
    header: 'Details',
    // Wraps between its key=value pairs (and inside a long one) instead of widening the table; nothing when empty.
    render: (e) =>
      details(e) ? (
        <Text size="xs" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
          {details(e)}
        </Text>
      ) : null,
    searchValue: details,
    sortable: false,
  },
];

/**
 * Engine events, newest first; `compact` leaves out the type and name (an app's own card).
 * `nameExtra` adds to an event's name (the Events page: a removed container's kept logs).
 */
export function EventsTable({
  events,
  loading,
  compact = false,
  nameExtra,
}: {
  events: EngineEventRecord[] | undefined;
  loading?: boolean;
  compact?: boolean;
  nameExtra?: (e: EngineEventRecord) => ReactNode;
}) {
  const columns = compact
    ? COLUMNS.filter((c) => c.key !== 'type' && c.key !== 'name')
    : nameExtra
      ? COLUMNS.map((c) =>
          c.key === 'name'
            ? {
                ...c,
                render: (e: EngineEventRecord) => (
                  <Group gap={6} wrap="wrap">
                    {nameCell(e)}
                    {nameExtra(e)}
                  </Group>
                ),
              }
            : c,
        )
      : COLUMNS;
  return (
    <DataTable
      label="Engine events"
      data={events}
      columns={columns}
      rowKey={(e) => String(e.id)}
      loading={loading}
      // The page shows the newest EVENTS_SHOWN in one scroll, like a log; new ones arrive on top.
      pageSize={compact ? 15 : 0}
      defaultSort={{ key: 'time', direction: 'desc' }}
      emptyText="No events in this time range."
    />
  );
}
