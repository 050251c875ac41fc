import { useState } from 'react';
import { Badge, Group, Text } from '@mantine/core';
import { useNavigate } from 'react-router-dom';
import { volumeApi, type Volume } from '@berth/contract';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { BatchBar, REMOVE_ACTIONS, useBatchSelection } from '../../../components/BatchBar';
import { AddAction } from '../../../components/AddAction';
import { DataTable, type Column } from '../../../components/DataTable';
import { formatDate, toDate } from '../../../lib/format';
import { notifySuccess } from '../../../lib/notify';
import { RowMenu } from '../../../components/Menus';
import { useDeleteVolume, useRemoveVolumes, useVolumes } from '../api';
import { CreateVolumeDialog } from './CreateVolumeDialog';

const volumeName = (v: Volume) => v.Name;

const columns: Column<Volume>[] = [
  {
    key: 'Name',
    header: 'Name',
    sortable: true,
    render: (v) => (
      <Group gap="xs" wrap="nowrap">
        <Text size="sm" style={{ wordBreak: 'break-all' }}>
          {v.Name}
        </Text>
        {v.inUse === 0 ? (
          <Badge size="sm" variant="light" color="gray">
            Unused
          </Badge>
        ) : (
          <Badge size="sm" variant="light" color="green" title={`Mounted by ${v.inUse} container(s)`}>
            In use{v.inUse > 1 ? ` (${v.inUse})` : ''}
          </Badge>
        )}
      </Group>
    ),
  },
  {
    key: 'Project',
    header: 'Project',
    sortable: true,
    sortValue: (v) => v.Project ?? '',
    render: (v) => v.Project ?? '-',
  },
  { key: 'Driver', header: 'Driver', sortable: true },
  {
    key: 'CreatedAt',
    header: 'Created',
    sortable: true,
    sortValue: (v) => toDate(v.CreatedAt)?.getTime(),
    searchValue: (v) => formatDate(v.CreatedAt),
    render: (v) => formatDate(v.CreatedAt),
  },
];

/** Volumes: search, sort, paging, create and delete. */
export function VolumesTable() {
  const navigate = useNavigate();
  const volumes = useVolumes();
  const remove = useDeleteVolume();
  const removeMany = useRemoveVolumes();
  const { selection, selectedRows } = useBatchSelection(volumes.data, volumeName, volumeName, volumeApi.batch);
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<Volume | null>(null);
  const open = (v: Volume) => navigate(`/resources/volumes/${encodeURIComponent(v.Name)}`);

  const confirmDelete = () => {
    if (!deleting) return;
    remove.mutate(deleting.Name, {
      onSuccess: (v) => notifySuccess(`Volume ${v.Name} deleted.`),
      onSettled: () => setDeleting(null),
    });
  };

  const rowMenu = (v: Volume) => (
    <RowMenu name={v.Name} onView={() => open(v)} onDelete={() => setDeleting(v)} deleteRoute={volumeApi.remove} />
  );

  return (
    <>
      {volumes.error && <Text c="red">{volumes.error.message}</Text>}
      <BatchBar
        noun={['volume', 'volumes']}
        selectedRows={selectedRows}
        selection={selection}
        rowKey={volumeName}
        itemOf={volumeName}
        labelOf={volumeName}
        actions={REMOVE_ACTIONS}
        run={async (_action, names) => (await removeMany.mutateAsync(names)).results}
      />
      <DataTable
        label="Volumes"
        data={volumes.data}
        columns={columns}
        rowKey={volumeName}
        selection={selection}
        searchPlaceholder="Search volumes"
        defaultSort={{ key: 'Name', direction: 'asc' }}
        loading={volumes.isLoading}
        onRowClick={open}
        rowMenu={rowMenu}
        emptyText="No Volumes available."
        toolbar={<AddAction label="Create Volume" route={volumeApi.create} onClick={() => setCreating(true)} />}
      />
      <CreateVolumeDialog opened={creating} onClose={() => setCreating(false)} />
      <ConfirmDialog
        opened={deleting !== null}
        title="Delete the volume?"
        loading={remove.isPending}
        onConfirm={confirmDelete}
        onCancel={() => setDeleting(null)}
      >
        {`The volume ${deleting?.Name ?? ''} and the data in it will be permanently deleted.`}
      </ConfirmDialog>
    </>
  );
}
