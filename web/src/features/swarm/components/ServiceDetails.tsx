import { useState } from 'react';
import { Badge, Button, Group, Stack, Text, Title } from '@mantine/core';
import { useNavigate } from 'react-router-dom';
import { swarmApi, type ServiceDetail, type SwarmTask } from '@berth/contract';
import { Can } from '../../../components/RoleGate';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { DataTable, type Column } from '../../../components/DataTable';
import { FieldGrid } from '../../../components/Fields';
import { formatBytes, formatDate } from '../../../lib/format';
import { notifySuccess } from '../../../lib/notify';
import { useRemoveService, useRollbackService, useService, useTasks } from '../api';
import { ScaleControl } from './ScaleControl';
import { ServiceEdit } from './ServiceEdit';
import { ServiceLogs } from './ServiceLogs';

const taskColumns: Column<SwarmTask>[] = [
  { key: 'slot', header: 'Slot', sortable: true, render: (t) => t.slot ?? '-' },
  {
    key: 'state',
    header: 'State',
    sortable: true,
    render: (t) => (
      <Badge variant="light" color={t.state === 'running' ? 'green' : 'gray'}>
        {t.state}
      </Badge>
    ),
  },
  { key: 'desiredState', header: 'Desired', sortable: true },
  {
    key: 'image',
    header: 'Image',
    render: (t) => (
      <Text size="sm" ff="monospace">
        {t.image}
      </Text>
    ),
  },
  { key: 'message', header: 'Message', render: (t) => t.error ?? t.message },
  { key: 'updatedAt', header: 'Updated', sortable: true, render: (t) => formatDate(t.updatedAt) },
];

function resources(s: ServiceDetail): string {
  const r = s.resources;
  const part = (cpu: number | null, mem: number | null) =>
    [cpu !== null && `${cpu} CPU`, mem !== null && formatBytes(mem)].filter(Boolean).join(', ') || 'none';
  return `limits ${part(r.cpuLimit, r.memoryLimitBytes)}; reservations ${part(r.cpuReservation, r.memoryReservationBytes)}`;
}

/** One service: facts, scale, edit, roll back, remove, its tasks and its live log. */
export function ServiceDetails({ id }: { id: string }) {
  const navigate = useNavigate();
  const service = useService(id);
  const tasks = useTasks(id);
  const rollback = useRollbackService();
  const remove = useRemoveService();
  const [editing, setEditing] = useState(false);
  const [removing, setRemoving] = useState(false);
  if (service.error) return <Text c="red">{service.error.message}</Text>;
  const s = service.data;
  if (!s) return <Text c="dimmed">Loading…</Text>;
  return (
    <Stack>
      <Group>
        <ScaleControl service={s} />
        <Can route={swarmApi.updateService}>
          <Button variant="default" onClick={() => setEditing((e) => !e)}>
            {editing ? 'Close the form' : 'Edit'}
          </Button>
        </Can>
        <Can route={swarmApi.rollbackService}>
          <Button
            variant="default"
            disabled={!s.canRollback}
            loading={rollback.isPending}
            onClick={() => rollback.mutate(s.id, { onSuccess: () => notifySuccess(`${s.name} is rolling back.`) })}
          >
            Rollback
          </Button>
        </Can>
        <Can route={swarmApi.removeService}>
          <Button color="red" variant="light" onClick={() => setRemoving(true)}>
            Remove
          </Button>
        </Can>
      </Group>
      {editing && (
        <ServiceEdit service={s} reread={async () => (await service.refetch()).data} onDone={() => setEditing(false)} />
      )}
      <FieldGrid
        fields={[
          { label: 'Image', value: s.image, mono: true },
          { label: 'Mode', value: s.mode },
          { label: 'Update status', value: s.updateStatus ? `${s.updateStatus.state} ${s.updateStatus.message}` : '-' },
          { label: 'Stack', value: s.stack ?? '-' },
          { label: 'Command', value: s.command.join(' '), mono: true },
          { label: 'Environment', value: s.envNames.join(', ') },
          { label: 'Secrets', value: s.secrets.join(', ') },
          { label: 'Configs', value: s.configs.map((c) => `${c.name} → ${c.target}`).join(', ') },
          { label: 'Constraints', value: s.constraints.join(', ') },
          {
            label: 'Mounts',
            value:
              s.mounts
                .map((m) => `${m.type} ${m.source || '-'} → ${m.target}${m.readOnly ? ' (ro)' : ''}`)
                .join(', ') || '-',
          },
          { label: 'Resources', value: resources(s) },
          {
            label: 'Restart',
            value: `${s.restartPolicy.condition}, delay ${s.restartPolicy.delaySeconds} s, ${s.restartPolicy.maxAttempts || 'unlimited'} attempts`,
          },
          {
            label: 'Update policy',
            value: `${s.updatePolicy.parallelism} at a time, ${s.updatePolicy.order}, on failure ${s.updatePolicy.failureAction}`,
          },
          { label: 'Created', value: formatDate(s.createdAt) },
        ]}
      />
      <Title order={3} size="h4">
        Tasks
      </Title>
      <DataTable
        label="Tasks"
        data={tasks.data}
        columns={taskColumns}
        rowKey={(t) => t.id}
        loading={tasks.isLoading}
        emptyText="No tasks."
        pageSize={15}
      />
      <Title order={3} size="h4">
        Logs
      </Title>
      <ServiceLogs id={s.id} />
      <ConfirmDialog
        opened={removing}
        title="Remove the service?"
        confirmLabel="Remove"
        loading={remove.isPending}
        onConfirm={() =>
          remove.mutate(s.id, {
            onSuccess: () => {
              notifySuccess(`Service ${s.name} removed.`);
              navigate('/swarm/services');
            },
            onSettled: () => setRemoving(false),
          })
        }
        onCancel={() => setRemoving(false)}
      >
        {`The service ${s.name} and its tasks will be removed.`}
      </ConfirmDialog>
    </Stack>
  );
}
