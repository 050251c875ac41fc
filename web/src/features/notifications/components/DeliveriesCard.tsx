import { Badge, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { Delivery } from '@berth/contract';
import { DataTable, type Column } from '../../../components/DataTable';
import { Section } from '../../../components/Section';
import { formatDate } from '../../../lib/format';
import { historyQuery } from '../api';

const STATUS_COLOR = { sent: 'green', pending: 'yellow', failed: 'red' } as const;

const COLUMNS: Column<Delivery>[] = [
  { key: 'time', header: 'Time', render: (d) => formatDate(d.time), sortValue: (d) => d.id, width: 190 },
  { key: 'channel_name', header: 'Channel' },
  { key: 'title', header: 'Message' },
  {
    key: 'status',
    header: 'Status',
    render: (d) => (
      <Badge color={STATUS_COLOR[d.status]} variant="light">
        {d.status}
      </Badge>
    ),
  },
  { key: 'attempts', header: 'Attempts' },
  {
    key: 'error',
    header: 'Error',
    render: (d) =>
      d.error ? (
        <Text size="sm" c="red">
          {d.error}
        </Text>
      ) : (
        '—'
      ),
  },
];

/** Settings → Notifications: the last deliveries, with retries and errors. */
export function DeliveriesCard() {
  const history = useQuery(historyQuery());
  return (
    <Section title="Recent deliveries">
      <DataTable
        label="Notification deliveries"
        data={history.data}
        columns={COLUMNS}
        rowKey={(d) => String(d.id)}
        loading={history.isPending}
        pageSize={15}
        defaultSort={{ key: 'time', direction: 'desc' }}
        emptyText="Nothing sent yet."
      />
    </Section>
  );
}
