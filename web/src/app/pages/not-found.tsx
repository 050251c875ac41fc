import { Button, Stack, Text } from '@mantine/core';
import { Link, useLocation } from 'react-router-dom';
import { PageHeader } from '../../components/PageHeader';

export default function NotFoundPage() {
  const { pathname } = useLocation();
  return (
    <Stack align="flex-start">
      <PageHeader title="Not Found" />
      <Text>There is no page at {pathname}.</Text>
      <Button component={Link} to="/">
        Go to the dashboard
      </Button>
    </Stack>
  );
}
