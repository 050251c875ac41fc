import { Select, Stack, TextInput, SegmentedControl, Group, Input, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { NETWORK_MODES } from '@berth/contract';
import { networkNamesQuery } from '../api';
import { emptyRow, isHostNetworking } from '../form-model';
import type { DeployForm } from '../use-deploy-form';
import { RowList } from './RowList';
import { useEnvironment } from '../../../lib/environment';

function PortRowInputs({ form, i }: { form: DeployForm; i: number }) {
  const proto = form.getInputProps(`ports.${i}.proto`);
  const first = i === 0;
  return (
    <>
      <TextInput
        label={first ? 'Label' : undefined}
        aria-label={`Port label ${i + 1}`}
        placeholder="WebUI"
        {...form.getInputProps(`ports.${i}.label`)}
      />
      <TextInput
        label={first ? 'Host IP' : undefined}
        aria-label={`Host IP ${i + 1}`}
        placeholder="all interfaces"
        {...form.getInputProps(`ports.${i}.host_ip`)}
      />
      <TextInput
        label={first ? 'Host Port' : undefined}
        aria-label={`Host port ${i + 1}`}
        placeholder="random"
        inputMode="numeric"
        {...form.getInputProps(`ports.${i}.hport`)}
      />
      <TextInput
        label={first ? 'Container Port' : undefined}
        withAsterisk={first}
        aria-label={`Container port ${i + 1}`}
        inputMode="numeric"
        {...form.getInputProps(`ports.${i}.cport`)}
      />
      <Input.Wrapper label={first ? 'Protocol' : undefined} error={proto.error} style={{ flexGrow: 0 }}>
        {/* A block around the inline control keeps it under its label like the other inputs. */}
        <div>
          <SegmentedControl
            aria-label={`Protocol ${i + 1}`}
            data={['tcp', 'udp']}
            value={form.values.ports[i]?.proto ?? 'tcp'}
            onChange={(v) => form.setFieldValue(`ports.${i}.proto`, v as 'tcp' | 'udp')}
          />
        </div>
      </Input.Wrapper>
    </>
  );
}

/** Step 2: a network or a network mode (never both), and published ports unless networking is host. */
export function NetworkingStep({ form }: { form: DeployForm }) {
  const networks = useQuery(networkNamesQuery(useEnvironment()));
  const { network, network_mode } = form.values;
  const names = [...new Set([...(networks.data ?? []), ...(network ? [network] : [])])];
  return (
    <Stack gap="lg">
      <Group grow align="flex-start" maw={640}>
        <Select
          label="Network"
          clearButtonProps={{ 'aria-label': 'Clear Network', 'aria-hidden': false, tabIndex: 0 }}
          placeholder={network_mode ? 'Not with a network mode' : 'Default'}
          clearable
          searchable
          data={names}
          disabled={!!network_mode}
          value={network || null}
          onChange={(v) => form.setFieldValue('network', v ?? '')}
          error={form.errors.network}
          description={networks.error ? `Networks could not be read: ${networks.error.message}` : undefined}
        />
        <Select
          label="Network Mode"
          clearButtonProps={{ 'aria-label': 'Clear Network Mode', 'aria-hidden': false, tabIndex: 0 }}
          placeholder={network ? 'Not with a network' : 'Default'}
          clearable
          data={[...NETWORK_MODES]}
          disabled={!!network}
          value={network_mode || null}
          onChange={(v) => form.setFieldValue('network_mode', v ?? '')}
          error={form.errors.network_mode}
        />
      </Group>
      {isHostNetworking(form.values) ? (
        <Text size="sm" c="dimmed" data-testid="host-ports-note">
          Ports are hidden: with host networking the app listens on the host&apos;s own ports, so none are published.
          {form.values.ports.length > 0 &&
            ` The ${form.values.ports.length} port row(s) entered are kept but not sent.`}
        </Text>
      ) : (
        <RowList
          title="Ports"
          noun="port"
          count={form.values.ports.length}
          rowKey={(i) => form.key(`ports.${i}`)}
          renderRow={(i) => <PortRowInputs form={form} i={i} />}
          onAdd={() => form.insertListItem('ports', emptyRow.ports())}
          onRemove={(i) => form.removeListItem('ports', i)}
          error={form.errors.ports as string | undefined}
          hint="Container port required; host port optional (empty = a random free port); 0-65535. Host IP optional: empty publishes on every interface, 127.0.0.1 (or ::1) keeps the port local to this host."
        />
      )}
    </Stack>
  );
}
