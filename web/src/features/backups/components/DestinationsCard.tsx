import { useState } from 'react';
import { Alert, Badge, Button, Group, Stack, Text } from '@mantine/core';
import { IconPlugConnected, IconPlus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { BackupDestination } from '@berth/contract';
import { DataTable, type Column } from '../../../components/DataTable';
import { RemoveRowDialog, RowRemoveButton } from '../../../components/RemoveRow';
import { formatDate } from '../../../lib/format';
import { errorMessage, notifyInfo, notifySuccess } from '../../../lib/notify';
import { destinationsQuery, useRemoveDestination, useTestDestination } from '../api';
import { kindLabel } from '../form-schema';
import { DestinationForm } from './DestinationForm';

/** Where a destination is, in one line: the folder, or user@host:port/folder. */
export const destinationWhere = (d: BackupDestination) =>
  d.host ? `${d.username ?? ''}@${d.host}${d.port ? `:${d.port}` : ''}${d.path}` : d.path;

/** Backup destinations (admins): add (Berth writes to it first), test, remove one no job uses. */
export function DestinationsCard() {
  const list = useQuery(destinationsQuery());
  const test = useTestDestination();
  const remove = useRemoveDestination();
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<BackupDestination | null>(null);

  const columns: Column<BackupDestination>[] = [
    { key: 'name', header: 'Name', sortable: true },
    { key: 'kind', header: 'Kind', render: (d) => kindLabel(d.kind) },
    {
      key: 'where',
      header: 'Where',
      searchValue: destinationWhere,
      render: (d) => (
        <Group gap={6}>
          <Text size="sm" ff="monospace">
            {destinationWhere(d)}
          </Text>
          {d.has_secret && <Badge variant="light">secret stored</Badge>}
        </Group>
      ),
    },
    { key: 'created_at', header: 'Added', render: (d) => formatDate(d.created_at) },
    {
      key: 'actions',
      header: 'Actions',
      noSearch: true,
      render: (d) => (
        <Group gap={4} wrap="nowrap">
          <Button
            size="compact-sm"
            variant="default"
            leftSection={<IconPlugConnected size={14} />}
            loading={test.isPending && test.variables === d.id}
            aria-label={`Test ${d.name}`}
            onClick={() =>
              test.mutate(d.id, {
                onSuccess: (r) => (r.ok ? notifySuccess(r.detail) : notifyInfo(r.detail, 'Test failed')),
              })
            }
          >
            Test
          </Button>
          <RowRemoveButton name={d.name} onClick={() => setRemoving(d)} />
        </Group>
      ),
    },
  ];

  return (
    <Stack>
      {list.error && <Alert color="red">{errorMessage(list.error)}</Alert>}
      <DataTable
        label="Backup destinations"
        data={list.data}
        loading={list.isPending}
        columns={columns}
        rowKey={(d) => String(d.id)}
        pageSize={0}
        emptyText="No destination yet: add where archives are kept."
        toolbar={
          <Button leftSection={<IconPlus size={16} />} onClick={() => setAdding(true)}>
            Add destination
          </Button>
        }
      />
      {adding && <DestinationForm onClose={() => setAdding(false)} />}
      <RemoveRowDialog item={removing} mutation={remove} noun="Destination" onClose={() => setRemoving(null)}>
        Berth forgets this destination; the archives already there stay where they are.
      </RemoveRowDialog>
    </Stack>
  );
}
