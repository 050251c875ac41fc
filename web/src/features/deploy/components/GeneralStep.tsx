import { Select, Stack, TextInput } from '@mantine/core';
import { RESTART_POLICIES } from '@berth/contract';
import type { DeployForm } from '../use-deploy-form';
import { RegistryHint } from '../../registries';
import { CommandLineField } from './CommandLineField';

/** Step 1: name, image and restart policy (all required), and the command as one line. */
export function GeneralStep({ form }: { form: DeployForm }) {
  const restart = form.getInputProps('restart_policy');
  return (
    <Stack gap="sm" maw={640}>
      <TextInput label="Name" withAsterisk placeholder="my-app" autoComplete="off" {...form.getInputProps('name')} />
      <TextInput
        label="Image"
        withAsterisk
        placeholder="registry.example.com/owner/app:tag"
        autoComplete="off"
        {...form.getInputProps('image')}
      />
      <RegistryHint image={form.values.image} />
      <Select
        label="Restart Policy"
        clearButtonProps={{ 'aria-label': 'Clear Restart Policy', 'aria-hidden': false, tabIndex: 0 }}
        withAsterisk
        clearable
        data={[...RESTART_POLICIES]}
        {...restart}
        value={form.values.restart_policy || null}
        onChange={(v) => form.setFieldValue('restart_policy', v ?? '')}
        onBlur={restart.onBlur}
      />
      <CommandLineField form={form} />
    </Stack>
  );
}
