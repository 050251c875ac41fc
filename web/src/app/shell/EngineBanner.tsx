import { Alert } from '@mantine/core';
import { IconDatabaseExclamation, IconPlugConnectedX } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { LOCAL_ENVIRONMENT } from '@berth/contract';
import { environmentsQuery } from '../../features/environments';
import { useEnvironment } from '../../lib/environment';
import { healthQuery } from './health';

/**
 * Says so when the selected environment's Docker engine (or Berth itself) cannot be reached, or
 * when the disk holding Berth's data is full; clears when it returns. Another environment's status comes from the environments list.
 */
export function EngineBanner() {
  const { data, error } = useQuery(healthQuery());
  const env = useEnvironment();
  const envs = useQuery({ ...environmentsQuery(), enabled: env !== LOCAL_ENVIRONMENT });
  const selected = env === LOCAL_ENVIRONMENT ? undefined : envs.data?.find((e) => e.id === env);
  if (error) {
    return (
      <Alert color="red" icon={<IconPlugConnectedX size={18} />} title="Berth server unreachable" mb="md" role="alert">
        The Berth server is not answering. Retrying every 10 seconds.
      </Alert>
    );
  }
  if (selected && !selected.status.reachable) {
    return (
      <Alert
        color="red"
        icon={<IconPlugConnectedX size={18} />}
        title={`Docker engine of ${selected.name} unreachable`}
        mb="md"
        role="alert"
      >
        {selected.status.error ?? 'The Docker engine does not answer.'} Berth reconnects by itself when it is back.
      </Alert>
    );
  }
  if (data?.storage.full) {
    return (
      <Alert color="red" icon={<IconDatabaseExclamation size={18} />} title="Disk full" mb="md" role="alert">
        {data.storage.error} Retrying every 10 seconds.
      </Alert>
    );
  }
  if (env !== LOCAL_ENVIRONMENT || !data || data.engine.reachable) return null;
  return (
    <Alert color="red" icon={<IconPlugConnectedX size={18} />} title="Docker engine unreachable" mb="md" role="alert">
      {data.engine.error ?? 'The Docker engine does not answer.'} Berth reconnects by itself when it is back.
    </Alert>
  );
}
