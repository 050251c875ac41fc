import { Badge, Select, Text } from '@mantine/core';
import { swarmApi, type SwarmNode } from '@berth/contract';
import { DataTable, type Column } from '../../../components/DataTable';
import { formatBytes } from '../../../lib/format';
import { notifySuccess } from '../../../lib/notify';
import { useCan } from '../../../lib/session';
import { useNodes, useUpdateNode } from '../api';
import { NodeLabels } from './NodeLabels';
import { NodeRole } from './NodeRole';

function Availability({ node }: { node: SwarmNode }) {
  const update = useUpdateNode();
  const canUpdate = useCan(swarmApi.updateNode);
  return (
    <Select
      aria-label={`Availability of ${node.hostname}`}
      size="xs"
      w={110}
      allowDeselect={false}
      data={['active', 'pause', 'drain']}
      value={node.availability}
      disabled={update.isPending || !canUpdate}
      onChange={(v) =>
        v &&
        update.mutate(
          { id: node.id, body: { availability: v as SwarmNode['availability'] } },
          { onSuccess: (n) => notifySuccess(`${n.hostname} is now ${n.availability}.`) },
        )
      }
    />
  );
}

const columns: Column<SwarmNode>[] = [
  { key: 'hostname', header: 'Hostname', sortable: true },
  { key: 'role', header: 'Role', sortable: true, render: (n) => <NodeRole node={n} /> },
  {
    key: 'state',
    header: 'Status',
    sortable: true,
    render: (n) => (
      <Badge color={n.state === 'ready' ? 'green' : 'red'} variant="light">
        {n.state}
      </Badge>
    ),
  },
  { key: 'availability', header: 'Availability', sortable: true, render: (n) => <Availability node={n} /> },
  { key: 'engineVersion', header: 'Engine', sortable: true },
  {
    key: 'addr',
    header: 'Address',
    render: (n) => (
      <Text ff="monospace" size="sm">
        {n.addr}
      </Text>
    ),
  },
  { key: 'resources', header: 'Resources', render: (n) => `${n.nanoCpus / 1e9} CPU, ${formatBytes(n.memoryBytes)}` },
  { key: 'labels', header: 'Labels', render: (n) => <NodeLabels node={n} /> },
];

/** The swarm's nodes; availability, role (confirmed) and labels change in place (drain moves the tasks away). */
export function NodesTable() {
  const nodes = useNodes();
  return (
    <>
      {nodes.error && <Text c="red">{nodes.error.message}</Text>}
      <DataTable
        label="Nodes"
        data={nodes.data}
        columns={columns}
        rowKey={(n) => n.id}
        searchPlaceholder="Search nodes"
        loading={nodes.isLoading}
        emptyText="No nodes."
      />
    </>
  );
}
