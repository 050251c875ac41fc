import { useState } from 'react';
import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { IconKey, IconPlugConnected, IconPlus, IconRouter, IconShieldLock, IconShieldX } from '@tabler/icons-react';
import { useNavigate } from 'react-router-dom';
import { useQuery } from '@tanstack/react-query';
import { environmentApi, LOCAL_ENVIRONMENT, policyApi, type AgentEnrolment, type Environment } from '@berth/contract';
import { Can } from '../../../components/RoleGate';
import { DataTable, type Column } from '../../../components/DataTable';
import { RemoveRowDialog, RowEditButton, RowRemoveButton } from '../../../components/RemoveRow';
import { errorMessage, notifyInfo, notifySuccess } from '../../../lib/notify';
import { environmentsQuery, useAgentToken, useRemoveEnvironment, useRevokeAgent, useTestEnvironment } from '../api';
import { AgentDialog, EnrolmentView } from './AgentDialog';
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
  const [addingAgent, setAddingAgent] = useState(false);
  const [revoking, setRevoking] = useState<Environment | null>(null);
  const [enrolment, setEnrolment] = useState<AgentEnrolment | null>(null);
  const token = useAgentToken();
  const revoke = useRevokeAgent();

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
          {e.kind === 'agent' && (
            <>
              <Can route={environmentApi.agentToken}>
                <Button
                  size="compact-sm"
                  variant="default"
                  leftSection={<IconKey size={14} />}
                  onClick={() => token.mutate(e.id, { onSuccess: setEnrolment })}
                  loading={token.isPending && token.variables === e.id}
                  aria-label={`New enrolment token for ${e.name}`}
                >
                  New token
                </Button>
              </Can>
              {e.agent?.enrolled && (
                <Can route={environmentApi.agentRevoke}>
                  <Button
                    size="compact-sm"
                    color="red"
                    variant="light"
                    leftSection={<IconShieldX size={14} />}
                    onClick={() => setRevoking(e)}
                    aria-label={`Revoke the agent of ${e.name}`}
                  >
                    Revoke
                  </Button>
                </Can>
              )}
            </>
          )}
          {e.id !== LOCAL_ENVIRONMENT && (
            <>
              {e.kind !== 'agent' && (
                <Can route={environmentApi.update}>
                  <RowEditButton name={e.name} onClick={() => setForm({ editing: e })} />
                </Can>
              )}
              <Can route={environmentApi.remove}>
                <RowRemoveButton name={e.name} onClick={() => setRemoving(e)} />
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
            <Can route={environmentApi.createAgent}>
              <Button variant="default" leftSection={<IconRouter size={16} />} onClick={() => setAddingAgent(true)}>
                Add agent
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
      <AgentDialog opened={addingAgent} onClose={() => setAddingAgent(false)} />
      <Modal
        opened={enrolment !== null}
        onClose={() => setEnrolment(null)}
        title="New enrolment token"
        centered
        size="xl"
      >
        {enrolment && <EnrolmentView enrolment={enrolment} onClose={() => setEnrolment(null)} />}
      </Modal>
      <RemoveRowDialog
        item={revoking}
        mutation={revoke}
        verb="Revoke"
        title={`Revoke the agent of ${revoking?.name ?? ''}?`}
        done={(name) => `The agent of ${name} was revoked.`}
        onClose={() => setRevoking(null)}
      >
        Its connection is cut now and its key is forgotten: it cannot connect again. A new token enrols another.
      </RemoveRowDialog>
      <RemoveRowDialog item={removing} mutation={remove} noun="Environment" onClose={() => setRemoving(null)}>
        Berth forgets this engine and its stored keys. The engine, its apps and its compose project folders are left as
        they are.
      </RemoveRowDialog>
    </Stack>
  );
}
