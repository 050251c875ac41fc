import { Alert, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { BackupRun } from '@berth/contract';
import { DataTable, type Column } from '../../../components/DataTable';
import { formatBytes, formatDate } from '../../../lib/format';
import { errorMessage } from '../../../lib/notify';
import { jobsQuery, runsQuery } from '../api';
import { RunBadge } from './Badges';

/** Backup, drill and restore runs, newest first, with their outcome and error. */
export function RunsCard() {
  const runs = useQuery(runsQuery());
  const jobs = useQuery(jobsQuery());
  const jobName = (id: number | null) => (id === null ? '—' : (jobs.data?.find((j) => j.id === id)?.name ?? `#${id}`));
  const columns: Column<BackupRun>[] = [
    { key: 'started_at', header: 'Started', sortable: true, render: (r) => formatDate(r.started_at) },
    { key: 'kind', header: 'Kind', sortable: true },
    { key: 'job_id', header: 'Job', searchValue: (r) => jobName(r.job_id), render: (r) => jobName(r.job_id) },
    { key: 'outcome', header: 'Outcome', render: (r) => <RunBadge run={r} /> },
    {
      key: 'duration_ms',
      header: 'Took',
      render: (r) => (r.duration_ms === null ? '—' : `${(r.duration_ms / 1000).toFixed(1)} s`),
    },
    { key: 'bytes', header: 'Size', render: (r) => (r.bytes === null ? '—' : formatBytes(r.bytes)) },
    {
      key: 'error',
      header: 'Archive or error',
      render: (r) =>
        r.error ? (
          <Text size="sm" c="red">
            {r.error}
          </Text>
        ) : (
          <Text size="sm" ff="monospace">
            {r.archive ?? '—'}
          </Text>
        ),
    },
  ];
  return (
    <>
      {runs.error && <Alert color="red">{errorMessage(runs.error)}</Alert>}
      <DataTable
        label="Backup runs"
        data={runs.data}
        loading={runs.isPending}
        columns={columns}
        rowKey={(r) => String(r.id)}
        emptyText="No run yet."
        searchPlaceholder="Search runs"
      />
    </>
  );
}
