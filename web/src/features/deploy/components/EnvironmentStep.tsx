import { Select, Stack, TextInput } from '@mantine/core';
import { emptyRow } from '../form-model';
import type { DeployForm } from '../use-deploy-form';
import { AdvancedPanel } from './AdvancedPanel';
import { RowList } from './RowList';

/** Step 4: environment variables (name and value required), then the Advanced panel. */
export function EnvironmentStep({ form, errors }: { form: DeployForm; errors: Record<string, string> }) {
  return (
    <Stack gap="lg">
      <RowList
        title="Environment"
        noun="variable"
        count={form.values.env.length}
        rowKey={(i) => form.key(`env.${i}`)}
        onAdd={() => form.insertListItem('env', emptyRow.env())}
        onRemove={(i) => form.removeListItem('env', i)}
        error={form.errors.env as string | undefined}
        hint="Template variables such as !config are replaced when the app is deployed."
        renderRow={(i) => {
          const row = form.values.env[i];
          const description =
            [row?.label && row.label !== row.name ? row.label : '', row?.description].filter(Boolean).join(': ') ||
            undefined;
          return (
            <>
              <TextInput
                label={i === 0 ? 'Name' : undefined}
                withAsterisk={i === 0}
                aria-label={`Variable name ${i + 1}`}
                placeholder="TZ"
                {...form.getInputProps(`env.${i}.name`)}
              />
              {row?.options?.length ? (
                // A template's `select`: its choices (and their labels), not free text.
                <Select
                  label={i === 0 ? 'Value' : undefined}
                  withAsterisk={i === 0}
                  aria-label={`Variable value ${i + 1}`}
                  description={description}
                  data={row.options.map((o) => ({ value: o.value, label: o.label }))}
                  allowDeselect={false}
                  {...form.getInputProps(`env.${i}.default`)}
                />
              ) : (
                <TextInput
                  label={i === 0 ? 'Value' : undefined}
                  withAsterisk={i === 0}
                  aria-label={`Variable value ${i + 1}`}
                  description={description}
                  {...form.getInputProps(`env.${i}.default`)}
                />
              )}
            </>
          );
        }}
      />
      <AdvancedPanel form={form} errors={errors} />
    </Stack>
  );
}
