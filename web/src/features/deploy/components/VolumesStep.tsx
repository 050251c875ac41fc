import { Checkbox, TextInput } from '@mantine/core';
import { emptyRow } from '../form-model';
import type { DeployForm } from '../use-deploy-form';
import { RowList } from './RowList';

/** Step 3: host paths or named volumes mounted into the container. */
export function VolumesStep({ form }: { form: DeployForm }) {
  return (
    <RowList
      title="Volumes"
      noun="volume"
      count={form.values.volumes.length}
      rowKey={(i) => form.key(`volumes.${i}`)}
      onAdd={() => form.insertListItem('volumes', emptyRow.volumes())}
      onRemove={(i) => form.removeListItem('volumes', i)}
      error={form.errors.volumes as string | undefined}
      hint="Host: a path (/srv/app) or a volume name. Container: an absolute path."
      renderRow={(i) => (
        <>
          <TextInput label={i === 0 ? 'Host' : undefined} withAsterisk={i === 0} aria-label={`Volume host ${i + 1}`} placeholder="/srv/app or volume-name" {...form.getInputProps(`volumes.${i}.bind`)} />
          <TextInput label={i === 0 ? 'Container' : undefined} withAsterisk={i === 0} aria-label={`Volume container ${i + 1}`} placeholder="/data" {...form.getInputProps(`volumes.${i}.container`)} />
          <Checkbox label="Read-only" mt={i === 0 ? 32 : 8} style={{ flexGrow: 0 }} {...form.getInputProps(`volumes.${i}.readonly`, { type: 'checkbox' })} />
        </>
      )}
    />
  );
}
