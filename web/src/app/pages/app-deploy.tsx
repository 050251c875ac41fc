import { Text } from '@mantine/core';
import { useParams } from 'react-router-dom';
import { PageHeader } from '../../components/PageHeader';
import { DeployFromTemplateItem } from '../../features/deploy/components/DeploySources';

export default function AppDeployPage() {
  const itemId = Number(useParams().appId);
  return (
    <>
      <PageHeader
        title="Deploy"
        subtitle="Pre-filled from the template; variables such as !config are replaced on deploy."
      />
      {Number.isInteger(itemId) && itemId > 0 ? (
        <DeployFromTemplateItem itemId={itemId} />
      ) : (
        <Text c="red">Not a template item id.</Text>
      )}
    </>
  );
}
