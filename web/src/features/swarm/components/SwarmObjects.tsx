import { useState, type FormEvent } from 'react';
import { ActionIcon, Alert, Button, Group, Paper, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { swarmApi, type SwarmObject } from '@berth/contract';
import { Can } from '../../../components/RoleGate';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { DataTable, type Column } from '../../../components/DataTable';
import { formatDate } from '../../../lib/format';
import { useCan } from '../../../lib/session';
import { errorMessage, notifySuccess } from '../../../lib/notify';
import { useCreateSwarmObject, useRemoveSwarmObject, useSwarmObjects, type SwarmObjectKind } from '../api';

const columns: Column<SwarmObject>[] = [
  { key: 'name', header: 'Name', sortable: true },
  { key: 'usedBy', header: 'Used by', render: (o) => o.usedBy.join(', ') || '-' },
  { key: 'createdAt', header: 'Created', sortable: true, render: (o) => formatDate(o.createdAt) },
];

function CreateForm({ kind }: { kind: SwarmObjectKind }) {
  const create = useCreateSwarmObject(kind);
  const [name, setName] = useState('');
  const [data, setData] = useState('');
  const one = kind === 'configs' ? 'config' : 'secret';
  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate(
      { name: name.trim(), data },
      {
        onSuccess: () => {
          notifySuccess(`The ${one} ${name.trim()} was created.`);
          setName('');
          setData('');
        },
      },
    );
  };
  return (
    <Paper withBorder p="md" component="form" onSubmit={submit} aria-label={`Create ${one}`}>
      <Stack>
        {create.error && <Alert color="red">{errorMessage(create.error)}</Alert>}
        <TextInput
          label="Name"
          required
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
          autoComplete="off"
        />
        <Textarea
          label="Value"
          description={kind === 'secrets' ? 'Write-only: Berth never shows it again.' : undefined}
          required
          autosize
          minRows={2}
          value={data}
          onChange={(e) => setData(e.currentTarget.value)}
        />
        <Group>
          <Button type="submit" loading={create.isPending} disabled={!name.trim() || !data}>
            Create
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

/** Configs or secrets: list with their users, create, delete (refused while a service uses one). */
export function SwarmObjects({ kind }: { kind: SwarmObjectKind }) {
  const list = useSwarmObjects(kind);
  const remove = useRemoveSwarmObject(kind);
  const canRemove = useCan(kind === 'configs' ? swarmApi.removeConfig : swarmApi.removeSecret);
  const [removing, setRemoving] = useState<SwarmObject | null>(null);
  const one = kind === 'configs' ? 'config' : 'secret';
  return (
    <Stack>
      {list.error && <Text c="red">{list.error.message}</Text>}
      <DataTable
        label={kind === 'configs' ? 'Configs' : 'Secrets'}
        data={list.data}
        columns={columns}
        rowKey={(o) => o.id}
        searchPlaceholder={`Search ${kind}`}
        loading={list.isLoading}
        rowMenu={
          canRemove
            ? (o) => (
                <ActionIcon variant="subtle" color="red" aria-label={`Delete ${o.name}`} onClick={() => setRemoving(o)}>
                  <IconTrash size={16} />
                </ActionIcon>
              )
            : undefined
        }
        emptyText={`No ${kind}.`}
      />
      <Can route={kind === 'configs' ? swarmApi.createConfig : swarmApi.createSecret}>
        <CreateForm kind={kind} />
      </Can>
      <ConfirmDialog
        opened={removing !== null}
        title={`Delete the ${one}?`}
        loading={remove.isPending}
        onConfirm={() =>
          removing &&
          remove.mutate(removing.id, {
            onSuccess: () => notifySuccess(`The ${one} ${removing.name} was deleted.`),
            onSettled: () => setRemoving(null),
          })
        }
        onCancel={() => setRemoving(null)}
      >
        {`The ${one} ${removing?.name ?? ''} will be deleted.`}
      </ConfirmDialog>
    </Stack>
  );
}
