import { PageHeader } from '../../components/PageHeader';
import { SwarmOverview } from '../../features/swarm/components/SwarmOverview';

/** /swarm */
export default function SwarmOverviewPage() {
  return (
    <>
      <PageHeader title="Swarm" subtitle="Nodes, services and tasks at a glance." />
      <SwarmOverview />
    </>
  );
}
