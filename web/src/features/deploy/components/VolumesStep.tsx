import { Checkbox } from '@mantine/core';
import type { DeployForm } from '../use-deploy-form';
import { TextRows } from './TextRows';

/** Step 3: host paths or named volumes mounted into the container. */
export function VolumesStep({ form }: { form: DeployForm }) {
  return (
    <TextRows
      form={form}
      field="volumes"
      title="Volumes"
      noun="volume"
      hint="Host: a path (/srv/app), a volume name, or empty for an anonymous volume (a new unnamed volume, as in Portainer). Container: an absolute path."
      columns={[
        { key: 'bind', label: 'Host', aria: 'Volume host', placeholder: 'anonymous volume' },
        { key: 'container', label: 'Container', aria: 'Volume container', required: true, placeholder: '/data' },
      ]}
      extra={(i) => (
        <Checkbox
          label="Read-only"
          mt={i === 0 ? 32 : 8}
          style={{ flexGrow: 0 }}
          {...form.getInputProps(`volumes.${i}.readonly`, { type: 'checkbox' })}
        />
      )}
    />
  );
}
