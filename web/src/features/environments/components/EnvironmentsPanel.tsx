import { useState } from 'react';
import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { IconPencil, IconPlugConnected, IconPlus, IconShieldLock, IconTrash } from '@tabler/icons-react';
import { useNavigate } from 'react-router-dom';
import { useQuery } from '@tanstack/react-query';
import { environmentApi, LOCAL_ENVIRONMENT, policyApi, type Environment } from '@berth/contract';
import { Can } from '../../../components/RoleGate';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { DataTable, type Column } from '../../../components/DataTable';
import { errorMessage, notifyInfo, notifySuccess } from '../../../lib/notify';
import { environmentsQuery, useRemoveEnvironment, useTestEnvironment } from '../api';
import { EnvironmentForm } from './EnvironmentForm';
import { StatusDot } from './StatusDot';

const statusText = (e: Environment) =>
  e.status.reachable
    ? `Docker ${e.status.version ?? '?'}${e.status.os ? ` on ${e.status.os}` : ''}${e.status.swarm_role && e.status.swarm_role !== 'none' ? ` (swarm ${e.status.swarm_role})` : ''}`
    : (e.status.error ?? 'Not reachable');

/** Settings → Environments: every engine Berth manages, with status; add, test, edit, remove. */
export function EnvironmentsPanel() {
  const navigate = useNavigate();
  const list = useQuery(environmentsQuery());
  const test = useTestEnvironment();
  const remove = useRemoveEnvironment();
  const [form, setForm] = useState<{ editing: Environment | null } | null>(null);
  const [removing, setRemoving] = useState<Environment | null>(null);
  const [saved, setSaved] = useState<string | null>(null);

  const runTest = (e: Environment) =>
    test.mutate(e.id, {
      onSuccess: (s) =>
        s.reachable
          ? notifySuccess(`${e.name} answers (Docker ${s.version ?? '?'}).`)
          : notifyInfo(`${e.name}: ${s.error ?? 'not reachable'}`, 'Unreachable'),
    });

  const columns: Column<Environment>[] = [
    {
      key: 'status',
      header: 'Status',
      render: (e) => <StatusDot status={e.status} />,
      sortValue: (e) => (e.status.reachable ? 1 : 0),
      width: 70,
    },
    { key: 'name', header: 'Name', sortable: true },
    {
      key: 'url',
      header: 'URL',
      render: (e) => (
        <Text size="sm" ff="monospace">
          {e.url}
        </Text>
      ),
    },
    { key: 'detail', header: 'Engine', render: (e) => <Text size="sm">{statusText(e)}</Text>, searchValue: statusText },
    {
      key: 'actions',
      header: 'Actions',
      noSearch: true,
      render: (e) => (
        <Group gap={4} wrap="nowrap">
          <Can route={environmentApi.test}>
            <Button
              size="compact-sm"
              variant="default"
              leftSection={<IconPlugConnected size={14} />}
              onClick={() => runTest(e)}
              loading={test.isPending && test.variables === e.id}
            >
              Test
            </Button>
          </Can>
          <Can route={policyApi.get}>
            <Button
              size="compact-sm"
              variant="default"
              leftSection={<IconShieldLock size={14} />}
              onClick={() => navigate(`/settings/environments/${e.id}/policy`)}
              aria-label={`Policy of ${e.name}`}
            >
              Policy
            </Button>
          </Can>
          {e.id !== LOCAL_ENVIRONMENT && (
            <>
              <Can route={environmentApi.update}>
                <Button
                  size="compact-sm"
                  variant="default"
                  leftSection={<IconPencil size={14} />}
                  onClick={() => setForm({ editing: e })}
                  aria-label={`Edit ${e.name}`}
                >
                  Edit
                </Button>
              </Can>
              <Can route={environmentApi.remove}>
                <Button
                  size="compact-sm"
                  color="red"
                  variant="light"
                  leftSection={<IconTrash size={14} />}
                  onClick={() => setRemoving(e)}
                  aria-label={`Remove ${e.name}`}
                >
                  Remove
                </Button>
              </Can>
            </>
          )}
        </Group>
      ),
    },
  ];

  return (
    <Stack>
      {list.error && <Alert color="red">{errorMessage(list.error)}</Alert>}
      <DataTable
        label="Environments"
        data={list.data}
        loading={list.isPending}
        columns={columns}
        rowKey={(e) => e.id}
        pageSize={0}
        toolbar={
          <Group gap="sm">
            <Can route={environmentApi.create}>
              <Button leftSection={<IconPlus size={16} />} onClick={() => (setSaved(null), setForm({ editing: null }))}>
                Add environment
              </Button>
            </Can>
            {saved && (
              <Text size="sm" c="green" role="status">
                {saved}
              </Text>
            )}
          </Group>
        }
      />
      {form && (
        <EnvironmentForm
          key={form.editing?.id ?? 'new'}
          editing={form.editing}
          opened
          onClose={() => setForm(null)}
          onDone={(e) => setSaved(`${e.name} ${form.editing ? 'saved' : 'added'}: ${statusText(e)}`)}
        />
      )}
      <ConfirmDialog
        opened={removing !== null}
        title={`Remove ${removing?.name ?? ''}?`}
        confirmLabel="Remove"
        loading={remove.isPending}
        onCancel={() => setRemoving(null)}
        onConfirm={() =>
          removing &&
          remove.mutate(removing.id, {
            onSuccess: () => {
              notifySuccess(`Environment ${removing.name} removed.`);
              setRemoving(null);
            },
          })
        }
      >
        Berth forgets this engine and its stored keys. The engine, its apps and its compose project folders are left as
        they are.
      </ConfirmDialog>
    </Stack>
  );
}
