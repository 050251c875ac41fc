import { Badge, Button, Card, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { Session } from '@berth/contract';
import { DataTable, type Column } from '../../../components/DataTable';
import { formatDate } from '../../../lib/format';
import { notifySuccess } from '../../../lib/notify';
import { sessionsQuery, useEndSession } from '../api';
import { describeDevice } from '../device';

/** User > Security: where this account is signed in, with a way to end each other session. */
export function SessionsCard() {
  const sessions = useQuery(sessionsQuery());
  const end = useEndSession();
  const columns: Column<Session>[] = [
    {
      key: 'device',
      header: 'Device',
      render: (s) => (
        <Text size="sm">
          <span title={s.device ?? undefined}>{describeDevice(s.device)}</span>{' '}
          {s.current && <Badge variant="light">This browser</Badge>}
        </Text>
      ),
    },
    { key: 'address', header: 'Address', render: (s) => s.address ?? '' },
    { key: 'created_at', header: 'Signed In', sortable: true, render: (s) => formatDate(s.created_at) },
    { key: 'last_used_at', header: 'Last Used', render: (s) => (s.last_used_at ? formatDate(s.last_used_at) : '') },
  ];
  return (
    <Card withBorder style={{ background: 'var(--berth-surface)' }}>
      <Title order={3} size="h4" mb="sm">
        Sessions
      </Title>
      <DataTable
        label="Sessions"
        data={sessions.data}
        columns={columns}
        rowKey={(s) => s.id}
        loading={sessions.isLoading}
        emptyText="No sessions."
        rowMenu={(s) =>
          s.current ? null : (
            <Button
              size="xs"
              variant="subtle"
              color="red"
              loading={end.isPending}
              onClick={() => end.mutate(s.id, { onSuccess: () => notifySuccess('Session ended.') })}
            >
              End
            </Button>
          )
        }
      />
    </Card>
  );
}
