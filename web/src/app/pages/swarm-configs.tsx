import { PageHeader } from '../../components/PageHeader';
import { SwarmObjects } from '../../features/swarm/components/SwarmObjects';

/** /swarm/configs */
export default function SwarmConfigsPage() {
  return (
    <>
      <PageHeader title="Configs" subtitle="Configuration files services mount." />
      <SwarmObjects kind="configs" />
    </>
  );
}
