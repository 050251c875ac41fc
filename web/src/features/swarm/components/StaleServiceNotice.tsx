import { useState } from 'react';
import { Alert, Button, Group, Text } from '@mantine/core';

/**
 * A stale write's notice (the service changed since it was read, so the change was refused), with
 * a Reload that reads the service again. `change` names what was refused, `next` what a reload lets
 * the user do.
 */
export function StaleServiceNotice({
  change,
  next,
  onReload,
}: {
  change: string;
  next: string;
  onReload: () => Promise<unknown>;
}) {
  const [reloading, setReloading] = useState(false);
  const reload = () => {
    setReloading(true);
    void onReload().finally(() => setReloading(false));
  };
  return (
    <Alert color="yellow" title="This service changed since you opened it">
      <Group justify="space-between">
        <Text size="sm">{`Someone (or the engine) changed it meanwhile, so your ${change} was not applied. Reload to ${next}.`}</Text>
        <Button size="xs" loading={reloading} onClick={reload}>
          Reload
        </Button>
      </Group>
    </Alert>
  );
}
