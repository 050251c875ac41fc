import { useState } from 'react';
import { Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { IconArchive } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { backupsApi, volumeApi } from '@berth/contract';
import { api } from '../../../lib/api-client';
import { useEnvironment } from '../../../lib/environment';
import { formatDate } from '../../../lib/format';
import { queryKeys } from '../../../lib/query-keys';
import { useCan } from '../../../lib/session';
import { jobsQuery, useRunBackup } from '../api';
import { jobsCovering, lastBackup } from '../model';
import { RunBadge } from './Badges';
import { JobForm } from './JobForm';
import { notifyRun } from './JobsCard';

export type BackupTarget = { kind: 'volume'; name: string } | { kind: 'project'; name: string };

/** The volumes a target stands for: a volume itself, or a project's named volumes (by their compose label). */
function useTargetVolumes(target: BackupTarget): string[] {
  const env = useEnvironment();
  const volumes = useQuery({
    queryKey: queryKeys.volumes.list(env),
    queryFn: ({ signal }) => api(volumeApi.list, { env, signal }),
    enabled: target.kind === 'project',
  });
  if (target.kind === 'volume') return [target.name];
  return (volumes.data ?? []).filter((v) => v.Project === target.name).map((v) => v.Name);
}

function Inner({ target }: { target: BackupTarget }) {
  const env = useEnvironment();
  const volumes = useTargetVolumes(target);
  const jobs = useQuery(jobsQuery());
  const covering = jobsCovering(jobs.data ?? [], env, {
    volumes,
    ...(target.kind === 'project' ? { project: target.name } : {}),
  });
  const last = lastBackup(covering);
  const run = useRunBackup();
  const [adding, setAdding] = useState(false);
  const backUpNow = async () => {
    if (covering.length === 0) return setAdding(true);
    for (const j of covering) notifyRun(`Backup ${j.name}`, await run.mutateAsync({ kind: 'run', id: j.id }));
  };
  return (
    <Card withBorder>
      <Group justify="space-between" mb="xs">
        <Title order={3} size="h5">
          Backups
        </Title>
        <Button
          size="compact-sm"
          leftSection={<IconArchive size={14} />}
          loading={run.isPending}
          onClick={() => void backUpNow()}
        >
          Back up now
        </Button>
      </Group>
      {covering.length === 0 ? (
        <Text size="sm" c="dimmed">
          No backup job covers{' '}
          {target.kind === 'volume' ? 'this volume' : `this project's volumes (${volumes.join(', ')})`}. Back up now
          adds one.
        </Text>
      ) : (
        <Stack gap={4}>
          <Group gap={6}>
            <Text size="sm">Last backup:</Text>
            <RunBadge run={last} />
            {last && <Text size="sm">{formatDate(last.started_at)}</Text>}
          </Group>
          {covering.map((j) => (
            <Text size="sm" key={j.id} c="dimmed">
              Job {j.name}: {j.schedule ? <code>{j.schedule}</code> : 'by hand'}; last verified restore{' '}
              {j.last_verified_at ? formatDate(j.last_verified_at) : 'never'}.
            </Text>
          ))}
          <Text size="sm">
            <Link to="/backups">All backups</Link>
          </Text>
        </Stack>
      )}
      {adding && (
        <JobForm
          editing={null}
          preset={{
            name: `${target.name}-backup`,
            target:
              target.kind === 'volume'
                ? { kind: 'volumes', volumes: [target.name], mode: 'live' }
                : { kind: 'project', project: target.name, mode: 'live' },
          }}
          onClose={() => setAdding(false)}
        />
      )}
    </Card>
  );
}

/** A volume's or project's last backup and a Back up now (admins only: backups are theirs). */
export function TargetBackupCard({ target }: { target: BackupTarget }) {
  return useCan(backupsApi.jobs) ? <Inner target={target} /> : null;
}
