import { useState } from 'react';
import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { IconPlayerPlay, IconPlus, IconShieldCheck } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { BackupJob, BackupRun } from '@berth/contract';
import { DataTable, type Column } from '../../../components/DataTable';
import { RemoveRowDialog, RowEditButton, RowRemoveButton } from '../../../components/RemoveRow';
import { formatBytes, formatDate } from '../../../lib/format';
import { errorMessage, notifyInfo, notifySuccess } from '../../../lib/notify';
import { destinationsQuery, jobsQuery, useRemoveJob, useRunBackup } from '../api';
import { retentionText, targetText } from '../model';
import { RunBadge } from './Badges';
import { JobForm } from './JobForm';

/** Says how a run ended, as a notification. */
export function notifyRun(what: string, run: BackupRun) {
  if (run.outcome === 'ok') notifySuccess(`${what}: done${run.bytes !== null ? `, ${formatBytes(run.bytes)}` : ''}.`);
  else notifyInfo(`${what} failed: ${run.error ?? 'no detail'}`, 'Failed');
}

/** Backup jobs with their last run and last verified restore: Back up now, Drill, Edit, Delete. */
export function JobsCard() {
  const jobs = useQuery(jobsQuery());
  const destinations = useQuery(destinationsQuery());
  const run = useRunBackup();
  const remove = useRemoveJob();
  const [form, setForm] = useState<{ editing: BackupJob | null } | null>(null);
  const [removing, setRemoving] = useState<BackupJob | null>(null);
  const destName = (id: number) => destinations.data?.find((d) => d.id === id)?.name ?? `#${id}`;
  const busy = (kind: 'run' | 'drill', id: number) =>
    run.isPending && run.variables?.kind === kind && run.variables.id === id;

  const columns: Column<BackupJob>[] = [
    { key: 'name', header: 'Name', sortable: true },
    {
      key: 'target',
      header: 'Target',
      searchValue: (j) => targetText(j.target),
      render: (j) => `${targetText(j.target)} (${j.environment})`,
    },
    { key: 'destination', header: 'Destination', render: (j) => destName(j.destination_id) },
    {
      key: 'schedule',
      header: 'Schedule',
      render: (j) => (
        <Stack gap={0}>
          <Text size="sm" ff="monospace" style={{ whiteSpace: 'nowrap' }}>
            {j.schedule ?? 'by hand'}
          </Text>
          <Text size="xs" c="dimmed">
            keep {retentionText(j)}
            {j.encrypted ? ', encrypted' : ''}
          </Text>
        </Stack>
      ),
    },
    {
      key: 'last_run',
      header: 'Last run',
      sortValue: (j) => j.last_run?.started_at ?? '',
      render: (j) => (
        <Group gap={6} wrap="nowrap">
          <RunBadge run={j.last_run} />
          {j.last_run && <Text size="sm">{formatDate(j.last_run.started_at)}</Text>}
        </Group>
      ),
    },
    {
      key: 'last_verified_at',
      header: 'Last verified restore',
      render: (j) => (j.last_verified_at ? formatDate(j.last_verified_at) : 'never'),
    },
    {
      key: 'actions',
      header: 'Actions',
      noSearch: true,
      render: (j) => (
        <Group gap={4} wrap="nowrap">
          <Button
            size="compact-sm"
            leftSection={<IconPlayerPlay size={14} />}
            loading={busy('run', j.id)}
            aria-label={`Back up ${j.name} now`}
            onClick={() =>
              run.mutate({ kind: 'run', id: j.id }, { onSuccess: (r) => notifyRun(`Backup ${j.name}`, r) })
            }
          >
            Run now
          </Button>
          <Button
            size="compact-sm"
            variant="default"
            leftSection={<IconShieldCheck size={14} />}
            loading={busy('drill', j.id)}
            aria-label={`Restore drill of ${j.name}`}
            onClick={() =>
              run.mutate({ kind: 'drill', id: j.id }, { onSuccess: (r) => notifyRun(`Restore drill of ${j.name}`, r) })
            }
          >
            Drill
          </Button>
          <RowEditButton name={j.name} onClick={() => setForm({ editing: j })} />
          <RowRemoveButton name={j.name} verb="Delete" onClick={() => setRemoving(j)} />
        </Group>
      ),
    },
  ];

  return (
    <Stack>
      {jobs.error && <Alert color="red">{errorMessage(jobs.error)}</Alert>}
      <DataTable
        label="Backup jobs"
        data={jobs.data}
        loading={jobs.isPending}
        columns={columns}
        rowKey={(j) => String(j.id)}
        pageSize={0}
        emptyText="No backup job yet."
        toolbar={
          <Button leftSection={<IconPlus size={16} />} onClick={() => setForm({ editing: null })}>
            Add job
          </Button>
        }
      />
      {form && <JobForm key={form.editing?.id ?? 'new'} editing={form.editing} onClose={() => setForm(null)} />}
      <RemoveRowDialog
        item={removing}
        mutation={remove}
        noun="Backup job"
        verb="Delete"
        onClose={() => setRemoving(null)}
      >
        The job stops running; its archives stay at their destination and in the archive list.
      </RemoveRowDialog>
    </Stack>
  );
}
