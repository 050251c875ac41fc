import { useState } from 'react';
import { Alert, Button, Group, Text } from '@mantine/core';
import type { ServiceDetail } from '@berth/contract';
import { ApiError } from '../../../lib/api-client';
import { notifySuccess } from '../../../lib/notify';
import { useUpdateService } from '../api';
import { formOf, toUpdateBody } from '../form-model';
import { ServiceForm } from './ServiceForm';

/**
 * The edit form of a service as it was when opened (the details keep refreshing underneath, the
 * form does not). Saving sends that version: if the service changed meanwhile the engine's
 * version moved and the server answers 409, shown as such with a reload of the form.
 */
export function ServiceEdit({ service, reread, onDone }: { service: ServiceDetail; reread: () => Promise<ServiceDetail | undefined>; onDone: () => void }) {
  const update = useUpdateService({ notifyError: false });
  const [opened, setOpened] = useState(service);
  const stale = update.error instanceof ApiError && update.error.status === 409;
  const [reloading, setReloading] = useState(false);
  const reload = async () => {
    setReloading(true);
    const fresh = await reread().finally(() => setReloading(false));
    update.reset();
    setOpened(fresh ?? service);
  };
  return (
    <ServiceForm
      key={opened.version}
      initial={formOf(opened)}
      editing={opened}
      submitLabel="Update"
      pending={update.isPending}
      error={update.error}
      errorNotice={
        stale ? (
          <Alert color="yellow" title="This service changed since you opened it">
            <Group justify="space-between">
              <Text size="sm">Someone (or the engine) changed it meanwhile, so your edit was not applied. Reload the form to edit its current settings.</Text>
              <Button size="xs" loading={reloading} onClick={() => void reload()}>
                Reload
              </Button>
            </Group>
          </Alert>
        ) : undefined
      }
      onSubmit={(f) =>
        update.mutate(
          { id: opened.id, body: toUpdateBody(f, opened.version) },
          {
            onSuccess: (s) => {
              notifySuccess(`Service ${s.name} updated.`);
              onDone();
            },
          },
        )
      }
    />
  );
}
