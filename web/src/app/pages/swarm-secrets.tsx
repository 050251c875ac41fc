import { PageHeader } from '../../components/PageHeader';
import { SwarmObjects } from '../../features/swarm/components/SwarmObjects';

/** /swarm/secrets */
export default function SwarmSecretsPage() {
  return (
    <>
      <PageHeader title="Secrets" subtitle="Secret values services mount; never shown again once written." />
      <SwarmObjects kind="secrets" />
    </>
  );
}
