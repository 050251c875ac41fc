import { useState } from 'react';
import { ActionIcon, Badge, Group, Text, Tooltip } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useNavigate } from 'react-router-dom';
import type { Volume } from '@berth/contract';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { DataTable, type Column } from '../../../components/DataTable';
import { formatDate, toDate } from '../../../lib/format';
import { notifySuccess } from '../../../lib/notify';
import { RowMenu } from '../../../components/Menus';
import { useDeleteVolume, useVolumes } from '../api';
import { CreateVolumeDialog } from './CreateVolumeDialog';

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
        {v.inUse === 0 && (
          <Badge size="sm" variant="light" color="gray">
            Unused
          </Badge>
        )}
      </Group>
    ),
  },
  { key: 'Project', header: 'Project', sortable: true, sortValue: (v) => v.Project ?? '', render: (v) => v.Project ?? '-' },
  { key: 'Driver', header: 'Driver', sortable: true },
  { key: 'CreatedAt', header: 'Created', sortable: true, sortValue: (v) => toDate(v.CreatedAt)?.getTime(), searchValue: (v) => formatDate(v.CreatedAt), render: (v) => formatDate(v.CreatedAt) },
];

/** Volumes: search, sort, paging, create and delete. */
export function VolumesTable() {
  const navigate = useNavigate();
  const volumes = useVolumes();
  const remove = useDeleteVolume();
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

  const rowMenu = (v: Volume) => <RowMenu name={v.Name} onView={() => open(v)} onDelete={() => setDeleting(v)} />;

  return (
    <>
      {volumes.error && <Text c="red">{volumes.error.message}</Text>}
      <DataTable
        label="Volumes"
        data={volumes.data}
        columns={columns}
        rowKey={(v) => v.Name}
        searchPlaceholder="Search volumes"
        defaultSort={{ key: 'Name', direction: 'asc' }}
        loading={volumes.isLoading}
        onRowClick={open}
        rowMenu={rowMenu}
        emptyText="No Volumes available."
        toolbar={
          <Tooltip label="Create Volume">
            <ActionIcon variant="filled" size="lg" aria-label="Create Volume" onClick={() => setCreating(true)}>
              <IconPlus size={18} />
            </ActionIcon>
          </Tooltip>
        }
      />
      <CreateVolumeDialog opened={creating} onClose={() => setCreating(false)} />
      <ConfirmDialog opened={deleting !== null} title="Delete the volume?" loading={remove.isPending} onConfirm={confirmDelete} onCancel={() => setDeleting(null)}>
        {`The volume ${deleting?.Name ?? ''} and the data in it will be permanently deleted.`}
      </ConfirmDialog>
    </>
  );
}
