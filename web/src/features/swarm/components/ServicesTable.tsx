import { useState } from 'react';
import { Badge, Text } from '@mantine/core';
import { useNavigate } from 'react-router-dom';
import { swarmApi, type SwarmService } from '@berth/contract';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { AddAction } from '../../../components/AddAction';
import { DataTable, type Column } from '../../../components/DataTable';
import { RowMenu } from '../../../components/Menus';
import { formatDate, toDate } from '../../../lib/format';
import { notifySuccess } from '../../../lib/notify';
import { useRemoveService, useServices } from '../api';
import { ScaleControl } from './ScaleControl';

const ports = (s: SwarmService) =>
  s.ports
    .map((p) => `${p.published ?? '*'}:${p.target}/${p.protocol}${p.mode === 'host' ? ' (host)' : ''}`)
    .join(', ') || '-';

const columns: Column<SwarmService>[] = [
  { key: 'name', header: 'Name', sortable: true },
  {
    key: 'image',
    header: 'Image',
    sortable: true,
    render: (s) => (
      <Text size="sm" ff="monospace">
        {s.image}
      </Text>
    ),
  },
  { key: 'mode', header: 'Mode', sortable: true },
  {
    key: 'replicas',
    header: 'Replicas',
    sortValue: (s) => s.replicas.desired,
    render: (s) => <ScaleControl service={s} />,
  },
  { key: 'ports', header: 'Ports', render: ports },
  {
    key: 'updateStatus',
    header: 'Update',
    render: (s) => (s.updateStatus ? <Badge variant="light">{s.updateStatus.state}</Badge> : '-'),
  },
  { key: 'stack', header: 'Stack', sortable: true, sortValue: (s) => s.stack ?? '', render: (s) => s.stack ?? '-' },
  {
    key: 'updatedAt',
    header: 'Updated',
    sortable: true,
    sortValue: (s) => toDate(s.updatedAt)?.getTime(),
    render: (s) => formatDate(s.updatedAt),
  },
];

/** Swarm services with inline scaling, a link to create one, and removal. */
export function ServicesTable() {
  const navigate = useNavigate();
  const services = useServices();
  const remove = useRemoveService();
  const [removing, setRemoving] = useState<SwarmService | null>(null);
  const open = (s: SwarmService) => navigate(`/swarm/services/${encodeURIComponent(s.name)}`);
  const confirm = () =>
    removing &&
    remove.mutate(removing.id, {
      onSuccess: (r) => notifySuccess(`Service ${r.removed} removed.`),
      onSettled: () => setRemoving(null),
    });
  return (
    <>
      {services.error && <Text c="red">{services.error.message}</Text>}
      <DataTable
        label="Services"
        data={services.data}
        columns={columns}
        rowKey={(s) => s.id}
        searchPlaceholder="Search services"
        loading={services.isLoading}
        onRowClick={open}
        rowMenu={(s) => (
          <RowMenu
            name={s.name}
            onView={() => open(s)}
            onDelete={() => setRemoving(s)}
            deleteRoute={swarmApi.removeService}
          />
        )}
        emptyText="No services."
        toolbar={<AddAction label="Create Service" route={swarmApi.createService} to="/swarm/services/new" />}
      />
      <ConfirmDialog
        opened={removing !== null}
        title="Remove the service?"
        confirmLabel="Remove"
        loading={remove.isPending}
        onConfirm={confirm}
        onCancel={() => setRemoving(null)}
      >
        {`The service ${removing?.name ?? ''} and its tasks will be removed.`}
      </ConfirmDialog>
    </>
  );
}
