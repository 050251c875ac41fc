import { useParams } from 'react-router-dom';
import { PageHeader } from '../../components/PageHeader';
import { EditApp } from '../../features/deploy/components/DeploySources';

export default function AppEditPage() {
  const appName = useParams().appName ?? '';
  return (
    <>
      <PageHeader
        title={`Edit ${appName}`}
        subtitle="Deploying replaces the container with one made from this configuration."
      />
      <EditApp key={appName} appName={appName} />
    </>
  );
}
