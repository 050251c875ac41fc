import { useState } from 'react';
import { Badge, Group, Text } from '@mantine/core';
import { useNavigate } from 'react-router-dom';
import { networkApi, type Network } from '@berth/contract';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { BatchBar, REMOVE_ACTIONS, useBatchSelection } from '../../../components/BatchBar';
import { AddAction } from '../../../components/AddAction';
import { DataTable, type Column } from '../../../components/DataTable';
import { formatDate, toDate } from '../../../lib/format';
import { notifySuccess } from '../../../lib/notify';
import { RowMenu } from '../../../components/Menus';
import { useDeleteNetwork, useNetworks, useRemoveNetworks } from '../api';

const networkId = (n: Network) => n.Id;
const networkName = (n: Network) => n.Name;

const subnets = (n: Network) => n.IPAM.Config.map((c) => c.Subnet ?? '').join(' ');
const gateways = (n: Network) => n.IPAM.Config.map((c) => c.Gateway ?? '').join(' ');

/** One line per address pool (IPv4 and IPv6 networks have two); '-' when the engine assigned none. */
function PoolCell({ values }: { values: (string | undefined)[] }) {
  const shown = values.filter((v): v is string => !!v);
  if (!shown.length) return '-';
  return (
    <Text size="sm" ff="monospace" style={{ whiteSpace: 'nowrap' }}>
      {shown.map((v, i) => (
        <span key={v}>
          {i > 0 && <br />}
          {v}
        </span>
      ))}
    </Text>
  );
}

const columns: Column<Network>[] = [
  {
    key: 'Name',
    header: 'Name',
    sortable: true,
    render: (n) => (
      <Group gap="xs" wrap="nowrap">
        <Text size="sm">{n.Name}</Text>
        {n.inUse === 0 && (
          <Badge size="sm" variant="light" color="gray">
            Unused
          </Badge>
        )}
      </Group>
    ),
  },
  {
    key: 'Project',
    header: 'Project',
    sortable: true,
    sortValue: (n) => n.Project ?? '',
    render: (n) => n.Project ?? '-',
  },
  {
    key: 'Id',
    header: 'ID',
    sortable: true,
    render: (n) => (
      <Text ff="monospace" size="sm">
        {n.Id.slice(0, 12)}
      </Text>
    ),
  },
  { key: 'Driver', header: 'Driver', sortable: true },
  {
    key: 'Subnet',
    header: 'Subnet',
    sortable: true,
    sortValue: (n) => subnets(n),
    searchValue: (n) => subnets(n),
    render: (n) => <PoolCell values={n.IPAM.Config.map((c) => c.Subnet)} />,
  },
  {
    key: 'Gateway',
    header: 'Gateway',
    sortable: true,
    sortValue: (n) => gateways(n),
    searchValue: (n) => gateways(n),
    render: (n) => <PoolCell values={n.IPAM.Config.map((c) => c.Gateway)} />,
  },
  {
    key: 'Created',
    header: 'Created',
    sortable: true,
    sortValue: (n) => toDate(n.Created)?.getTime(),
    searchValue: (n) => formatDate(n.Created),
    render: (n) => formatDate(n.Created),
  },
];

/** Networks: search, sort, paging, a link to create one, and delete. */
export function NetworksTable() {
  const navigate = useNavigate();
  const networks = useNetworks();
  const remove = useDeleteNetwork();
  const removeMany = useRemoveNetworks();
  const { selection, selectedRows } = useBatchSelection(networks.data, networkId, networkName, networkApi.batch);
  const [deleting, setDeleting] = useState<Network | null>(null);
  const open = (n: Network) => navigate(`/resources/networks/${encodeURIComponent(n.Id)}`);

  const confirmDelete = () => {
    if (!deleting) return;
    remove.mutate(deleting.Id, {
      onSuccess: (n) => notifySuccess(`Network ${n.Name} deleted.`),
      onSettled: () => setDeleting(null),
    });
  };

  const rowMenu = (n: Network) => (
    <RowMenu name={n.Name} onView={() => open(n)} onDelete={() => setDeleting(n)} deleteRoute={networkApi.remove} />
  );

  return (
    <>
      {networks.error && <Text c="red">{networks.error.message}</Text>}
      <BatchBar
        noun={['network', 'networks']}
        selectedRows={selectedRows}
        selection={selection}
        rowKey={networkId}
        itemOf={networkId}
        labelOf={networkName}
        actions={REMOVE_ACTIONS}
        run={async (_action, ids) => (await removeMany.mutateAsync(ids)).results}
      />
      <DataTable
        label="Networks"
        data={networks.data}
        columns={columns}
        rowKey={networkId}
        selection={selection}
        searchPlaceholder="Search networks"
        loading={networks.isLoading}
        defaultSort={{ key: 'Name', direction: 'asc' }}
        onRowClick={open}
        rowMenu={rowMenu}
        emptyText="No Networks available."
        toolbar={<AddAction label="Create Network" route={networkApi.create} to="/resources/networks/new" />}
      />
      <ConfirmDialog
        opened={deleting !== null}
        title="Delete the network?"
        loading={remove.isPending}
        onConfirm={confirmDelete}
        onCancel={() => setDeleting(null)}
      >
        {`The network ${deleting?.Name ?? ''} will be removed.`}
      </ConfirmDialog>
    </>
  );
}
