import { useState } from 'react';
import { Alert, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { IconRestore, IconShieldCheck } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { BackupArchive } from '@berth/contract';
import { DataTable, type Column } from '../../../components/DataTable';
import { formatBytes, formatDate } from '../../../lib/format';
import { errorMessage } from '../../../lib/notify';
import { archivesQuery, useRunBackup } from '../api';
import { archivesByTarget, targetText } from '../model';
import { VerifiedBadge } from './Badges';
import { notifyRun } from './JobsCard';
import { RestoreDialog } from './RestoreDialog';

/** What an archive holds (archives made before targets name only their volumes). */
const archiveTarget = (a: BackupArchive) =>
  targetText(a.manifest.target ?? { kind: 'volumes', volumes: a.manifest.volumes.map((v) => v.name), mode: 'live' });

/** Archives kept, per job: size, time, whether and when each was proven to restore; Restore and Verify now. */
export function ArchivesCard() {
  const archives = useQuery(archivesQuery());
  const verify = useRunBackup();
  const [restoring, setRestoring] = useState<BackupArchive | null>(null);

  const columns: Column<BackupArchive>[] = [
    {
      key: 'name',
      header: 'Archive',
      render: (a) => (
        <Text size="sm" ff="monospace">
          {a.name}
        </Text>
      ),
    },
    {
      key: 'target',
      header: 'Target',
      searchValue: archiveTarget,
      render: archiveTarget,
    },
    { key: 'created_at', header: 'Made', sortable: true, render: (a) => formatDate(a.created_at) },
    { key: 'bytes', header: 'Size', sortable: true, render: (a) => formatBytes(a.bytes) },
    {
      key: 'verified_at',
      header: 'Verified',
      sortValue: (a) => a.verified_at ?? '',
      render: (a) => <VerifiedBadge archive={a} />,
    },
    {
      key: 'actions',
      header: 'Actions',
      noSearch: true,
      render: (a) => (
        <Group gap={4} wrap="nowrap">
          <Button
            size="compact-sm"
            leftSection={<IconRestore size={14} />}
            aria-label={`Restore ${a.name}`}
            onClick={() => setRestoring(a)}
          >
            Restore
          </Button>
          <Button
            size="compact-sm"
            variant="default"
            leftSection={<IconShieldCheck size={14} />}
            loading={verify.isPending && verify.variables?.id === a.id}
            aria-label={`Verify ${a.name} now`}
            onClick={() =>
              verify.mutate({ kind: 'verify', id: a.id }, { onSuccess: (r) => notifyRun(`Verify ${a.name}`, r) })
            }
          >
            Verify now
          </Button>
        </Group>
      ),
    },
  ];

  const groups = archivesByTarget(archives.data ?? []);
  return (
    <Stack>
      {archives.error && <Alert color="red">{errorMessage(archives.error)}</Alert>}
      {!archives.isPending && groups.length === 0 && <Text c="dimmed">No archive yet: run a job.</Text>}
      {groups.map((g) => (
        <Card withBorder key={g.job}>
          <Title order={3} size="h5" mb="sm">
            {g.job}
          </Title>
          <DataTable
            label={`Archives of ${g.job}`}
            data={g.archives}
            columns={columns}
            rowKey={(a) => String(a.id)}
            pageSize={15}
          />
        </Card>
      ))}
      {restoring && <RestoreDialog archive={restoring} onClose={() => setRestoring(null)} />}
    </Stack>
  );
}
