import { useState } from 'react';
import type { ServiceDetail } from '@berth/contract';
import { notifySuccess } from '../../../lib/notify';
import { useUpdateService } from '../api';
import { formOf, isStaleWrite, toUpdateBody } from '../form-model';
import { ServiceForm } from './ServiceForm';
import { StaleServiceNotice } from './StaleServiceNotice';

/**
 * The edit form of a service as it was when opened (the details keep refreshing underneath, the
 * form does not). Saving sends that version: if the service changed meanwhile the engine's
 * version moved and the server answers 409, shown as such with a reload of the form.
 */
export function ServiceEdit({
  service,
  reread,
  onDone,
}: {
  service: ServiceDetail;
  reread: () => Promise<ServiceDetail | undefined>;
  onDone: () => void;
}) {
  const update = useUpdateService({ notifyError: false });
  const [opened, setOpened] = useState(service);
  const reload = async () => {
    const fresh = await reread();
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
        isStaleWrite(update.error) ? (
          <StaleServiceNotice change="edit" next="edit its current settings" onReload={reload} />
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
