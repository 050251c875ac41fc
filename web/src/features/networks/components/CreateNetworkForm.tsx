import { useState, type FormEvent } from 'react';
import { Alert, Button, Checkbox, Group, Paper, Select, SimpleGrid, Stack, TextInput, Title } from '@mantine/core';
import { useNavigate } from 'react-router-dom';
import { NETWORK_DRIVERS, type NetworkDriver } from '@berth/contract';
import { errorMessage, notifySuccess } from '../../../lib/notify';
import { useCreateNetwork } from '../api';
import { formErrors, initialNetworkForm, toPayload, visibleFields, type NetworkForm } from '../form-model';

type TextField = 'ipv4subnet' | 'ipv4gateway' | 'ipv4range' | 'ipv6subnet' | 'ipv6gateway' | 'ipv6range';

/** Create Network: the fields each driver takes, checked as typed; the server checks the addresses. */
export function CreateNetworkForm() {
  const navigate = useNavigate();
  const create = useCreateNetwork();
  const [form, setForm] = useState<NetworkForm>(initialNetworkForm);
  const [touched, setTouched] = useState<Partial<Record<keyof NetworkForm, boolean>>>({});
  const errors = formErrors(form);
  const valid = Object.keys(errors).length === 0;
  const show = visibleFields(form.networkDriver);

  const set = <K extends keyof NetworkForm>(key: K, value: NetworkForm[K]) => {
    setForm((f) => ({ ...f, [key]: value }));
    setTouched((t) => ({ ...t, [key]: true }));
  };
  const text = (
    key: TextField | 'name' | 'network_devices',
    label: string,
    extra: { placeholder?: string; disabled?: boolean; required?: boolean } = {},
  ) => (
    <TextInput
      label={label}
      value={form[key]}
      onChange={(e) => set(key, e.currentTarget.value)}
      error={touched[key] ? errors[key] : undefined}
      autoComplete="off"
      {...extra}
    />
  );
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!valid || create.isPending) return;
    create.mutate(toPayload(form), {
      onSuccess: () => {
        notifySuccess(`Network ${form.name.trim()} created.`);
        navigate('/resources/networks');
      },
    });
  };

  return (
    <form onSubmit={submit} aria-label="Create Network">
      <Stack>
        <Paper withBorder p="md">
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            {text('name', 'Name', { required: true, placeholder: 'my-network' })}
            <Select
              label="Driver"
              required
              allowDeselect={false}
              data={[...NETWORK_DRIVERS]}
              value={form.networkDriver}
              onChange={(v) => v && set('networkDriver', v as NetworkDriver)}
            />
            {show.networkInterface &&
              text('network_devices', 'Network Interface', { required: true, placeholder: 'eth0' })}
          </SimpleGrid>
          <Group mt="md">
            <Checkbox
              label="Internal Only"
              checked={form.internal}
              onChange={(e) => set('internal', e.currentTarget.checked)}
            />
            <Checkbox
              label="Attachable"
              checked={form.attachable}
              onChange={(e) => set('attachable', e.currentTarget.checked)}
            />
            <Checkbox
              label="Enable IPv6"
              checked={form.ipv6_enabled}
              onChange={(e) => set('ipv6_enabled', e.currentTarget.checked)}
            />
          </Group>
        </Paper>
        <Paper withBorder p="md">
          <Title order={3} size="h5" mb="sm">
            IPv4
          </Title>
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            {text('ipv4subnet', 'Subnet', { placeholder: '172.30.0.0/16' })}
            {text('ipv4gateway', 'Gateway', { placeholder: '172.30.0.1' })}
            {show.ipv4range && text('ipv4range', 'IP Range', { placeholder: '172.30.5.0/24' })}
          </SimpleGrid>
        </Paper>
        {show.ipv6 && (
          <Paper withBorder p="md">
            <Title order={3} size="h5" mb="sm">
              IPv6
            </Title>
            <SimpleGrid cols={{ base: 1, sm: 3 }}>
              {text('ipv6subnet', 'IPv6 Subnet', { placeholder: 'fd00:dead:beef::/48', disabled: !form.ipv6_enabled })}
              {text('ipv6gateway', 'IPv6 Gateway', { placeholder: 'fd00:dead:beef::1', disabled: !form.ipv6_enabled })}
              {show.ipv6range &&
                text('ipv6range', 'IPv6 Range', {
                  placeholder: 'fd00:dead:beef:cafe::/64',
                  disabled: !form.ipv6_enabled,
                })}
            </SimpleGrid>
          </Paper>
        )}
        {create.error && (
          <Alert color="red" role="alert">
            {errorMessage(create.error)}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={() => navigate('/resources/networks')}>
            Cancel
          </Button>
          <Button type="submit" disabled={!valid} loading={create.isPending}>
            Create
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
