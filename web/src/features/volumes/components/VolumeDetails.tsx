import { Anchor, Badge, Stack } from '@mantine/core';
import { Link, useNavigate } from 'react-router-dom';
import { volumeApi, type Volume, type VolumeUser } from '@berth/contract';
import { DataTable, type Column } from '../../../components/DataTable';
import { formatDate } from '../../../lib/format';
import { notifySuccess } from '../../../lib/notify';
import { Section } from '../../../components/Section';
import { FieldGrid, PairsTable } from '../../../components/Fields';
import { DetailMenu } from '../../../components/Menus';
import { useDeleteVolume } from '../api';

const userColumns: Column<VolumeUser>[] = [
  {
    key: 'name',
    header: 'Container',
    sortable: true,
    render: (u) => (
      <Anchor component={Link} to={`/apps/${encodeURIComponent(u.name)}/info`} size="sm">
        {u.name}
      </Anchor>
    ),
  },
  { key: 'state', header: 'State', sortable: true },
  { key: 'destination', header: 'Mounted at', render: (u) => <code>{u.destination}</code> },
  {
    key: 'read_only',
    header: 'Access',
    searchValue: (u) => (u.read_only ? 'read-only' : 'read-write'),
    render: (u) => (
      <Badge size="sm" variant="light" color={u.read_only ? 'gray' : 'blue'}>
        {u.read_only ? 'read-only' : 'read-write'}
      </Badge>
    ),
  },
];

export function VolumeDetails({ volume }: { volume: Volume }) {
  return (
    <Stack>
      <FieldGrid
        fields={[
          { label: 'Name', value: volume.Name },
          { label: 'Driver', value: volume.Driver },
          { label: 'Mountpoint', value: volume.Mountpoint, mono: true },
          { label: 'Scope', value: volume.Scope },
          { label: 'Created', value: formatDate(volume.CreatedAt) },
          { label: 'Project', value: volume.Project ?? '-' },
        ]}
      />
      <Section title="Used by">
        <DataTable
          label="Containers using the volume"
          data={volume.usedBy ?? []}
          columns={userColumns}
          rowKey={(u) => `${u.id}:${u.destination}`}
          pageSizeOptions={[]}
          pageSize={0}
          emptyText="No container uses this volume."
        />
      </Section>
      <Section title="Labels">
        <PairsTable label="Labels" keyHeader="Label" pairs={volume.Labels} />
      </Section>
    </Stack>
  );
}

/** The detail page's menu: Delete Volume, then back to the list. */
export function VolumeMenu({ volume }: { volume: Volume }) {
  const navigate = useNavigate();
  const remove = useDeleteVolume();
  const onDelete = (settled: () => void) =>
    remove.mutate(volume.Name, {
      onSuccess: () => {
        notifySuccess(`Volume ${volume.Name} deleted.`);
        navigate('/resources/volumes');
      },
      onSettled: settled,
    });
  return (
    <DetailMenu
      deleteLabel="Delete Volume"
      deleteRoute={volumeApi.remove}
      confirmTitle="Delete the volume?"
      confirmText={`The volume ${volume.Name} and the data in it will be permanently deleted.`}
      deleting={remove.isPending}
      onDelete={onDelete}
    />
  );
}
