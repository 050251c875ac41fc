import { Button } from '@mantine/core';
import { IconTemplate } from '@tabler/icons-react';
import { Link } from 'react-router-dom';
import { PageHeader } from '../../components/PageHeader';
import { DeployForm } from '../../features/deploy/components/DeployForm';
import { emptyDeployValues } from '../../features/deploy/form-model';

export default function AppAddPage() {
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
      <DeployForm initial={emptyDeployValues()} />
    </>
  );
}
