import { Button } from '@mantine/core';
import { IconTemplate } from '@tabler/icons-react';
import { Link, useSearchParams } from 'react-router-dom';
import { PageHeader } from '../../components/PageHeader';
import { DeployForm } from '../../features/deploy/components/DeployForm';
import { emptyDeployValues } from '../../features/deploy/form-model';

export default function AppAddPage() {
  // The registry browser's Deploy names the image to start from.
  const [params] = useSearchParams();
  const image = params.get('image') ?? '';
  return (
    <>
      <PageHeader
        title="Add Application"
        actions={
          <Button component={Link} to="/apps/templates" variant="light" leftSection={<IconTemplate size={16} />}>
            From Template
          </Button>
        }
      />
      <DeployForm key={image} initial={{ ...emptyDeployValues(), image }} />
    </>
  );
}
