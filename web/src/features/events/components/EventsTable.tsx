import { Badge, Code } from '@mantine/core';
import type { EngineEventRecord } from '@berth/contract';
import { DataTable, type Column } from '../../../components/DataTable';
import { formatDate } from '../../../lib/format';

const COLOR: Record<string, string> = {
  container: 'blue',
  image: 'grape',
  volume: 'teal',
  network: 'orange',
  service: 'cyan',
  node: 'gray',
};
const BAD = /^(die|oom|kill|health_status: unhealthy)$/;

const details = (e: EngineEventRecord) =>
  Object.entries(e.attributes)
    .filter(([k]) => k !== 'name')
    .map(([k, v]) => `${k.replace(/^com\.docker\.compose\./, 'compose.')}=${v}`)
    .join(' ');

const COLUMNS: Column<EngineEventRecord>[] = [
  { key: 'time', header: 'Time', render: (e) => formatDate(e.time), sortValue: (e) => e.id, width: 190 },
  {
    key: 'type',
    header: 'Type',
    render: (e) => (
      <Badge color={COLOR[e.type] ?? 'gray'} variant="light">
        {e.type}
      </Badge>
    ),
  },
  {
    key: 'action',
    header: 'Action',
    render: (e) => (
      <Badge color={BAD.test(e.action) ? 'red' : 'gray'} variant="outline" tt="none">
        {e.action}
      </Badge>
    ),
  },
  { key: 'name', header: 'Name' },
  {
    key: 'details',
    header: 'Details',
    render: (e) => <Code>{details(e)}</Code>,
    searchValue: details,
    sortable: false,
  },
];

/** Engine events, newest first; `compact` leaves out the type and name (an app's own card). */
export function EventsTable({
  events,
  loading,
  compact = false,
}: {
  events: EngineEventRecord[] | undefined;
  loading?: boolean;
  compact?: boolean;
}) {
  const columns = compact ? COLUMNS.filter((c) => c.key !== 'type' && c.key !== 'name') : COLUMNS;
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
