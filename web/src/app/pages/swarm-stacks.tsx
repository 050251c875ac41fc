import { PageHeader } from '../../components/PageHeader';
import { StacksTable } from '../../features/swarm/components/StacksTable';

/** /swarm/stacks */
export default function SwarmStacksPage() {
  return (
    <>
      <PageHeader title="Stacks" subtitle="Compose files deployed as swarm stacks." />
      <StacksTable />
    </>
  );
}
