import { useState } from 'react';
import { Alert, Badge, Button, Group, Stack, Text } from '@mantine/core';
import { IconFolderSearch, IconPlugConnected, IconPlus } from '@tabler/icons-react';
import { useNavigate } from 'react-router-dom';
import { useQuery } from '@tanstack/react-query';
import { registryApi, type Registry } from '@berth/contract';
import { Can } from '../../../components/RoleGate';
import { DataTable, type Column } from '../../../components/DataTable';
import { RemoveRowDialog, RowEditButton, RowRemoveButton } from '../../../components/RemoveRow';
import { errorMessage, notifyInfo, notifySuccess } from '../../../lib/notify';
import { registriesQuery, useRemoveRegistry, useTestRegistry } from '../api';
import { RegistryForm } from './RegistryForm';

const environmentsText = (r: Registry) => (r.environments === null ? 'All' : r.environments.join(', ') || 'None');

/** Settings → Registries: stored credentials (admins add, edit, remove; operators see, test and browse). */
export function RegistriesPanel() {
  const navigate = useNavigate();
  const list = useQuery(registriesQuery());
  const test = useTestRegistry();
  const remove = useRemoveRegistry();
  const [form, setForm] = useState<{ editing: Registry | null } | null>(null);
  const [removing, setRemoving] = useState<Registry | null>(null);

  const runTest = (r: Registry) =>
    test.mutate(
      { id: r.id },
      {
        onSuccess: (res) =>
          res.ok ? notifySuccess(`${r.name}: ${res.detail}`) : notifyInfo(`${r.name}: ${res.detail}`),
      },
    );

  const columns: Column<Registry>[] = [
    { key: 'name', header: 'Name', sortable: true },
    {
      key: 'server_address',
      header: 'Server',
      render: (r) => (
        <Text size="sm" ff="monospace">
          {r.server_address}
        </Text>
      ),
    },
    {
      key: 'username',
      header: 'Username',
      render: (r) => (
        <Group gap={6}>
          <Text size="sm">{r.username ?? '—'}</Text>
          {r.has_password && <Badge variant="light">password stored</Badge>}
          {r.ca_cert && <Badge variant="light">own CA</Badge>}
        </Group>
      ),
    },
    { key: 'environments', header: 'Environments', render: (r) => environmentsText(r), searchValue: environmentsText },
    {
      key: 'actions',
      header: 'Actions',
      noSearch: true,
      render: (r) => (
        <Group gap={4} wrap="nowrap">
          <Button
            size="compact-sm"
            variant="default"
            leftSection={<IconPlugConnected size={14} />}
            onClick={() => runTest(r)}
            loading={test.isPending && test.variables?.id === r.id}
            aria-label={`Test ${r.name}`}
          >
            Test
          </Button>
          <Button
            size="compact-sm"
            variant="default"
            leftSection={<IconFolderSearch size={14} />}
            onClick={() => navigate(`/settings/registries/${r.id}`)}
            aria-label={`Browse ${r.name}`}
          >
            Browse
          </Button>
          <Can route={registryApi.update}>
            <RowEditButton name={r.name} onClick={() => setForm({ editing: r })} />
          </Can>
          <Can route={registryApi.remove}>
            <RowRemoveButton name={r.name} onClick={() => setRemoving(r)} />
          </Can>
        </Group>
      ),
    },
  ];

  return (
    <Stack>
      <Text size="sm" c="dimmed">
        Pulls, deploys, updates, compose and stacks use the credential whose server matches the image&apos;s registry.
      </Text>
      {list.error && <Alert color="red">{errorMessage(list.error)}</Alert>}
      <DataTable
        label="Registries"
        data={list.data}
        loading={list.isPending}
        columns={columns}
        rowKey={(r) => String(r.id)}
        pageSize={0}
        toolbar={
          <Can route={registryApi.create}>
            <Button leftSection={<IconPlus size={16} />} onClick={() => setForm({ editing: null })}>
              Add registry
            </Button>
          </Can>
        }
      />
      {form && <RegistryForm key={form.editing?.id ?? 'new'} editing={form.editing} onClose={() => setForm(null)} />}
      <RemoveRowDialog item={removing} mutation={remove} noun="Registry" onClose={() => setRemoving(null)}>
        Berth forgets this credential; images from this registry are pulled anonymously afterwards.
      </RemoveRowDialog>
    </Stack>
  );
}
