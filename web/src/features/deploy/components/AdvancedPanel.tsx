import { Accordion, Badge, Group, MultiSelect, SimpleGrid, Stack, Switch, TextInput } from '@mantine/core';
import { CAPABILITIES } from '@berth/contract';
import { useState } from 'react';
import { ADVANCED_FIELDS, hasErrorsIn } from '../form-model';
import type { DeployForm } from '../use-deploy-form';
import { RowList } from './RowList';
import { TextRows } from './TextRows';

const MEMORY_HINT = 'a number with b, k, m or g (1000b, 100k, 10m, 1g)';

/** Command, devices, labels, sysctls, capabilities and limits; opened when any of them is set. */
export function AdvancedPanel({ form, errors }: { form: DeployForm; errors: Record<string, string> }) {
  const v = form.values;
  const used =
    v.command.length + v.devices.length + v.labels.length + v.sysctls.length + v.cap_add.length > 0 ||
    !!v.cpus ||
    !!v.mem_limit ||
    v.privileged ||
    v.interactive ||
    !!v.hostname;
  const [open, setOpen] = useState<string | null>(used ? 'advanced' : null);
  const invalid = hasErrorsIn(errors, ADVANCED_FIELDS);
  return (
    <Accordion variant="contained" value={open} onChange={setOpen}>
      <Accordion.Item value="advanced">
        <Accordion.Control>
          <Group gap="xs">
            Advanced
            {invalid && (
              <Badge color="red" size="sm">
                needs attention
              </Badge>
            )}
          </Group>
        </Accordion.Control>
        <Accordion.Panel>
          <Stack gap="lg">
            <RowList
              title="Command"
              noun="command entry"
              count={v.command.length}
              rowKey={(i) => form.key(`command.${i}`)}
              onAdd={() => form.insertListItem('command', '')}
              onRemove={(i) => form.removeListItem('command', i)}
              error={form.errors.command as string | undefined}
              hint="One argument per entry, e.g. sh, -c, sleep 3600: the exact view of the command line in General. Empty list = the image's default command."
              renderRow={(i) => (
                <TextInput aria-label={`Command entry ${i + 1}`} {...form.getInputProps(`command.${i}`)} />
              )}
            />
            <TextRows
              form={form}
              field="devices"
              title="Devices"
              noun="device"
              columns={[
                {
                  key: 'container',
                  label: 'Container',
                  aria: 'Device container',
                  required: true,
                  placeholder: '/dev/dri',
                },
                { key: 'host', label: 'Host', aria: 'Device host', required: true, placeholder: '/dev/dri' },
              ]}
            />
            <TextRows
              form={form}
              field="labels"
              title="Labels"
              noun="label"
              columns={[
                { key: 'label', label: 'Label', aria: 'Label name', required: true, placeholder: 'traefik.enable' },
                { key: 'value', label: 'Value', aria: 'Label value' },
              ]}
            />
            <TextRows
              form={form}
              field="sysctls"
              title="Sysctls"
              noun="sysctl"
              columns={[
                { key: 'name', label: 'Name', aria: 'Sysctl name', required: true, placeholder: 'net.ipv4.ip_forward' },
                { key: 'value', label: 'Value', aria: 'Sysctl value', required: true },
              ]}
            />
            <MultiSelect
              label="Capabilities"
              placeholder="Add capabilities"
              searchable
              clearable
              data={[...CAPABILITIES]}
              {...form.getInputProps('cap_add')}
            />
            <SimpleGrid cols={{ base: 1, sm: 2 }} maw={640}>
              <TextInput
                label="Hostname"
                placeholder="the container's ID"
                description="The name the app sees as its host"
                {...form.getInputProps('hostname')}
              />
              <Stack gap="xs" justify="center">
                <Switch
                  label="Interactive (keep stdin open, with a terminal)"
                  description="Like docker run -it: needed when the command is a shell"
                  {...form.getInputProps('interactive', { type: 'checkbox' })}
                />
                <Switch
                  label="Privileged"
                  description="Full access to the host's devices; the role policy may refuse it"
                  {...form.getInputProps('privileged', { type: 'checkbox' })}
                />
              </Stack>
              <TextInput
                label="CPU Cores"
                placeholder="e.g. 0.5 or 2"
                description="Empty = no limit"
                {...form.getInputProps('cpus')}
              />
              <TextInput
                label="Memory Limit"
                placeholder="e.g. 512m"
                description={`Empty = no limit; ${MEMORY_HINT}`}
                {...form.getInputProps('mem_limit')}
              />
            </SimpleGrid>
          </Stack>
        </Accordion.Panel>
      </Accordion.Item>
    </Accordion>
  );
}
