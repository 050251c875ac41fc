import { Accordion, Badge, Group, MultiSelect, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { CAPABILITIES } from '@berth/contract';
import { useState } from 'react';
import { ADVANCED_FIELDS, emptyRow, hasErrorsIn } from '../form-model';
import type { DeployForm } from '../use-deploy-form';
import { RowList } from './RowList';

const MEMORY_HINT = 'a number with b, k, m or g (1000b, 100k, 10m, 1g)';

/** Command, devices, labels, sysctls, capabilities and limits; opened when any of them is set. */
export function AdvancedPanel({ form, errors }: { form: DeployForm; errors: Record<string, string> }) {
  const v = form.values;
  const used = v.command.length + v.devices.length + v.labels.length + v.sysctls.length + v.cap_add.length > 0 || !!v.cpus || !!v.mem_limit;
  const [open, setOpen] = useState<string | null>(used ? 'advanced' : null);
  const invalid = hasErrorsIn(errors, ADVANCED_FIELDS);
  const listError = (field: string) => form.errors[field] as string | undefined;
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
              error={listError('command')}
              hint="One argument per entry, e.g. sh, -c, sleep 3600. Empty list = the image's default command."
              renderRow={(i) => <TextInput aria-label={`Command entry ${i + 1}`} {...form.getInputProps(`command.${i}`)} />}
            />
            <RowList
              title="Devices"
              noun="device"
              count={v.devices.length}
              rowKey={(i) => form.key(`devices.${i}`)}
              onAdd={() => form.insertListItem('devices', emptyRow.devices())}
              onRemove={(i) => form.removeListItem('devices', i)}
              error={listError('devices')}
              renderRow={(i) => (
                <>
                  <TextInput label={i === 0 ? 'Container' : undefined} withAsterisk={i === 0} aria-label={`Device container ${i + 1}`} placeholder="/dev/dri" {...form.getInputProps(`devices.${i}.container`)} />
                  <TextInput label={i === 0 ? 'Host' : undefined} withAsterisk={i === 0} aria-label={`Device host ${i + 1}`} placeholder="/dev/dri" {...form.getInputProps(`devices.${i}.host`)} />
                </>
              )}
            />
            <RowList
              title="Labels"
              noun="label"
              count={v.labels.length}
              rowKey={(i) => form.key(`labels.${i}`)}
              onAdd={() => form.insertListItem('labels', emptyRow.labels())}
              onRemove={(i) => form.removeListItem('labels', i)}
              error={listError('labels')}
              renderRow={(i) => (
                <>
                  <TextInput label={i === 0 ? 'Label' : undefined} withAsterisk={i === 0} aria-label={`Label name ${i + 1}`} placeholder="traefik.enable" {...form.getInputProps(`labels.${i}.label`)} />
                  <TextInput label={i === 0 ? 'Value' : undefined} aria-label={`Label value ${i + 1}`} {...form.getInputProps(`labels.${i}.value`)} />
                </>
              )}
            />
            <RowList
              title="Sysctls"
              noun="sysctl"
              count={v.sysctls.length}
              rowKey={(i) => form.key(`sysctls.${i}`)}
              onAdd={() => form.insertListItem('sysctls', emptyRow.sysctls())}
              onRemove={(i) => form.removeListItem('sysctls', i)}
              error={listError('sysctls')}
              renderRow={(i) => (
                <>
                  <TextInput label={i === 0 ? 'Name' : undefined} withAsterisk={i === 0} aria-label={`Sysctl name ${i + 1}`} placeholder="net.ipv4.ip_forward" {...form.getInputProps(`sysctls.${i}.name`)} />
                  <TextInput label={i === 0 ? 'Value' : undefined} withAsterisk={i === 0} aria-label={`Sysctl value ${i + 1}`} {...form.getInputProps(`sysctls.${i}.value`)} />
                </>
              )}
            />
            <MultiSelect label="Capabilities" placeholder="Add capabilities" searchable clearable data={[...CAPABILITIES]} {...form.getInputProps('cap_add')} />
            <SimpleGrid cols={{ base: 1, sm: 2 }} maw={640}>
              <TextInput label="CPU Cores" placeholder="e.g. 0.5 or 2" description="Empty = no limit" {...form.getInputProps('cpus')} />
              <TextInput label="Memory Limit" placeholder="e.g. 512m" description={`Empty = no limit; ${MEMORY_HINT}`} {...form.getInputProps('mem_limit')} />
            </SimpleGrid>
          </Stack>
        </Accordion.Panel>
      </Accordion.Item>
    </Accordion>
  );
}
