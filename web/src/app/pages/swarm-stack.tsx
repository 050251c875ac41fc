import { useParams } from 'react-router-dom';
import { PageHeader } from '../../components/PageHeader';
import { GitStatusCard } from '../../features/git';
import { StackEditor } from '../../features/swarm/components/StackEditor';

/** /swarm/stacks/new and /swarm/stacks/:stackName */
export default function SwarmStackPage() {
  const { stackName } = useParams();
  return (
    <>
      <PageHeader title={stackName ?? 'Deploy Stack'} subtitle="A compose file deployed with docker stack deploy." />
      {stackName && <GitStatusCard name={stackName} kind="stack" />}
      <StackEditor name={stackName ?? null} />
    </>
  );
}
