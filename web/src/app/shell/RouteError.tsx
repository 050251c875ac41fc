import { Alert, Button, Stack } from '@mantine/core';
import { isRouteErrorResponse, useRouteError } from 'react-router-dom';

/** Shown when a page throws or fails to load (e.g. a stale chunk after an update). */
export function RouteError() {
  const error = useRouteError();
  const message = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : error instanceof Error
      ? error.message
      : String(error);
  return (
    <Stack p="md" maw={640}>
      <Alert color="red" title="This page failed">
        {message}
      </Alert>
      <Button variant="default" onClick={() => window.location.reload()} w="fit-content">
        Reload
      </Button>
    </Stack>
  );
}
