import { Text } from '@mantine/core';
import { useParams } from 'react-router-dom';
import { PageHeader } from '../../components/PageHeader';
import { useNetwork } from '../../features/networks/api';
import { NetworkDetails } from '../../features/networks/components/NetworkDetails';
import { NetworkMenu } from '../../features/networks/components/NetworkMenu';
import { errorMessage } from '../../lib/notify';

/** /resources/networks/:networkid */
export default function NetworkDetailsPage() {
  const { networkid = '' } = useParams();
  const network = useNetwork(networkid);
  if (network.error) return <Text c="red">{errorMessage(network.error)}</Text>;
  if (!network.data) return <Text c="dimmed">Loading…</Text>;
  return (
    <>
      <PageHeader
        title={network.data.Name}
        subtitle="Network Details"
        actions={<NetworkMenu network={network.data} />}
      />
      <NetworkDetails network={network.data} />
    </>
  );
}
