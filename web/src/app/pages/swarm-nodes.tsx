import { PageHeader } from '../../components/PageHeader';
import { NodesTable } from '../../features/swarm/components/NodesTable';

/** /swarm/nodes */
export default function SwarmNodesPage() {
  return (
    <>
      <PageHeader title="Nodes" subtitle="The swarm's nodes; drain one to move its tasks away." />
      <NodesTable />
    </>
  );
}
