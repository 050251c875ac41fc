import { Stack, Text } from '@mantine/core';
import { useNavigate } from 'react-router-dom';
import type { Network, NetworkContainer } from '@berth/contract';
import { DataTable, type Column } from '../../../components/DataTable';
import { formatDate } from '../../../lib/format';
import { Section } from '../../../components/Section';
import { FieldGrid, PairsTable } from '../../../components/Fields';

type Attached = NetworkContainer & { id: string };

const attachedColumns: Column<Attached>[] = [
  { key: 'Name', header: 'Name', sortable: true },
  { key: 'IPv4Address', header: 'IPv4', sortable: true, render: (c) => c.IPv4Address || '-' },
  { key: 'IPv6Address', header: 'IPv6', render: (c) => c.IPv6Address || '-' },
  {
    key: 'MacAddress',
    header: 'MacAddress',
    render: (c) => (
      <Text ff="monospace" size="sm">
        {c.MacAddress || '-'}
      </Text>
    ),
  },
  {
    key: 'EndpointID',
    header: 'ID',
    render: (c) => (
      <Text ff="monospace" size="sm">
        {c.EndpointID.slice(0, 12)}
      </Text>
    ),
  },
];

const yesNo = (v: boolean) => (v ? 'Yes' : 'No');

/** The first IPAM pool of a family, or '-' fields (spec: IPv4 subnet and gateway from the first config). */
function pool(network: Network, v6: boolean) {
  const cfg = network.IPAM.Config.find((c) => (c.Subnet ?? '').includes(':') === v6);
  return { subnet: cfg?.Subnet || '-', gateway: cfg?.Gateway || '-' };
}

export function NetworkDetails({ network }: { network: Network }) {
  const navigate = useNavigate();
  const v4 = pool(network, false);
  const v6 = pool(network, true);
  const attached: Attached[] = Object.entries(network.Containers).map(([id, c]) => ({ ...c, id }));
  return (
    <Stack>
      <FieldGrid
        fields={[
          { label: 'Name', value: network.Name },
          { label: 'ID', value: network.Id, mono: true },
          { label: 'Driver', value: network.Driver },
          { label: 'Scope', value: network.Scope },
          { label: 'Attachable', value: yesNo(network.Attachable) },
          { label: 'Internal', value: yesNo(network.Internal) },
          { label: 'IPv6 Enabled', value: yesNo(network.EnableIPv6) },
          { label: 'Created', value: formatDate(network.Created) },
          { label: 'Project', value: network.Project ?? '-' },
          { label: 'IPv4 Subnet', value: v4.subnet },
          { label: 'IPv4 Gateway', value: v4.gateway },
          { label: 'IPv6 Subnet', value: v6.subnet },
          { label: 'IPv6 Gateway', value: v6.gateway },
        ]}
      />
      {Object.keys(network.Labels).length > 1 && (
        <Section title="Labels">
          <PairsTable label="Labels" keyHeader="Label" pairs={network.Labels} />
        </Section>
      )}
      <Section title="Options">
        <PairsTable label="Options" keyHeader="Option" pairs={network.Options} />
      </Section>
      <Section title="Attached Containers">
        <DataTable
          label="Attached Containers"
          data={attached}
          columns={attachedColumns}
          rowKey={(c) => c.id}
          onRowClick={(c) => navigate(`/apps/${encodeURIComponent(c.Name)}/info`)}
          pageSizeOptions={[]}
          pageSize={0}
          emptyText="No containers attached."
        />
      </Section>
    </Stack>
  );
}
