import { Alert } from '@mantine/core';
import { IconPlugConnectedX } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { healthQuery } from './health';

/** Says so when the Docker engine (or Berth itself) cannot be reached; clears when it returns. */
export function EngineBanner() {
  const { data, error } = useQuery(healthQuery());
  if (error) {
    return (
      <Alert color="red" icon={<IconPlugConnectedX size={18} />} title="Berth server unreachable" mb="md" role="alert">
        The Berth server is not answering. Retrying every 10 seconds.
      </Alert>
    );
  }
  if (!data || data.engine.reachable) return null;
  return (
    <Alert color="red" icon={<IconPlugConnectedX size={18} />} title="Docker engine unreachable" mb="md" role="alert">
      {data.engine.error ?? 'The Docker engine does not answer.'} Berth reconnects by itself when it is back.
    </Alert>
  );
}
