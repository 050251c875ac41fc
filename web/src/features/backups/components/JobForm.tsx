import { useState, type FormEvent } from 'react';
import { Alert, Button, Group, Modal, NumberInput, PasswordInput, Select, Stack, Text, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { environmentApi, type BackupJob, type BackupTarget } from '@berth/contract';
import { CronField } from '../../../components/CronField';
import { api } from '../../../lib/api-client';
import { useEnvironment } from '../../../lib/environment';
import { errorMessage, notifySuccess } from '../../../lib/notify';
import { queryKeys } from '../../../lib/query-keys';
import { destinationsQuery, useSaveJob } from '../api';
import { valuesOf, type FieldValues } from '../form-schema';
import { targetBody, targetFields, targetKinds, type TargetKind } from '../model';
import { TargetFields } from './TargetFields';

/** The server refuses schedules closer than this (backups and drills alike). */
const MIN_INTERVAL_MS = 5 * 60_000;

/** Retention inputs: field, label, description, lowest value. */
const KEEP = [
  ['keepLast', 'Keep last', 'The newest N archives', 1],
  ['keepDaily', 'Daily', 'Newest of each of the last D days', 0],
  ['keepWeekly', 'Weekly', 'Newest of each of the last W weeks', 0],
] as const;

interface Fields {
  name: string;
  environment: string;
  targetKind: TargetKind;
  target: FieldValues;
  destination: string | null;
  schedule: string;
  drill: string;
  keepLast: number;
  keepDaily: number;
  keepWeekly: number;
  passphrase: string;
}

export interface JobPreset {
  name?: string;
  target: BackupTarget;
}

const targetState = (target: BackupTarget | null): Pick<Fields, 'targetKind' | 'target'> => {
  const kind = target?.kind ?? targetKinds()[0]!;
  return { targetKind: kind, target: target ? valuesOf(targetFields(kind), target) : {} };
};

const fieldsOf = (job: BackupJob | null, env: string, preset?: JobPreset): Fields => ({
  name: job?.name ?? preset?.name ?? '',
  environment: job?.environment ?? env,
  ...targetState(job?.target ?? preset?.target ?? null),
  destination: job ? String(job.destination_id) : null,
  schedule: job ? (job.schedule ?? '') : '0 3 * * *',
  drill: job ? (job.drill_schedule ?? '') : '0 4 * * 0',
  keepLast: job?.keep_last ?? 7,
  keepDaily: job?.keep_daily ?? 0,
  keepWeekly: job?.keep_weekly ?? 0,
  passphrase: '',
});

/** Add or edit a backup job: volumes of one environment, a destination, schedules and retention. */
export function JobForm({
  editing,
  preset,
  onClose,
  onSaved,
}: {
  editing: BackupJob | null;
  preset?: JobPreset;
  onClose: () => void;
  /** After a save, with the job as saved (Back up now runs a job it just added). */
  onSaved?: (job: BackupJob) => void;
}) {
  const env = useEnvironment();
  const [f, setF] = useState<Fields>(() => fieldsOf(editing, env, preset));
  const set =
    <K extends keyof Fields>(k: K) =>
    (v: Fields[K]) =>
      setF((old) => ({ ...old, [k]: v }));
  const save = useSaveJob();
  const destinations = useQuery(destinationsQuery());
  const envs = useQuery({
    queryKey: queryKeys.environments.list(),
    queryFn: ({ signal }) => api(environmentApi.list, { signal }),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const common = {
      name: f.name.trim(),
      target: targetBody(f.targetKind, targetFields(f.targetKind), f.target),
      destination_id: Number(f.destination),
      schedule: f.schedule.trim() || null,
      drill_schedule: f.drill.trim() || null,
      keep_last: f.keepLast,
      keep_daily: f.keepDaily,
      keep_weekly: f.keepWeekly,
    };
    const body = editing
      ? common
      : { ...common, environment: f.environment, ...(f.passphrase ? { passphrase: f.passphrase } : {}) };
    save.mutate(
      { id: editing?.id ?? null, body },
      {
        onSuccess: (j) => {
          notifySuccess(`Backup job ${j.name} ${editing ? 'saved' : 'added'}.`);
          onClose();
          onSaved?.(j);
        },
      },
    );
  };

  return (
    <Modal opened onClose={onClose} size="lg" title={editing ? `Edit ${editing.name}` : 'Add backup job'}>
      <form onSubmit={submit} aria-label={editing ? 'Edit backup job' : 'Add backup job'}>
        <Stack>
          <TextInput
            label="Name"
            required
            value={f.name}
            onChange={(e) => set('name')(e.currentTarget.value)}
            data-autofocus
          />
          <Select
            label="Environment"
            data={(envs.data ?? [{ id: f.environment, name: f.environment }]).map((x) => ({
              value: x.id,
              label: x.name,
            }))}
            value={f.environment}
            onChange={(v) => v && setF((old) => ({ ...old, environment: v, target: {} }))}
            disabled={editing !== null}
            allowDeselect={false}
          />
          <TargetFields
            env={f.environment}
            kind={f.targetKind}
            values={f.target}
            onKind={(k) => setF((old) => ({ ...old, targetKind: k, target: {} }))}
            onValues={set('target')}
          />
          <Select
            label="Destination"
            required
            data={(destinations.data ?? []).map((d) => ({ value: String(d.id), label: `${d.name} (${d.kind})` }))}
            value={f.destination}
            onChange={set('destination')}
            placeholder={destinations.data?.length === 0 ? 'Add a destination first' : 'Where archives go'}
          />
          <CronField
            label="Backup schedule"
            value={f.schedule}
            onChange={set('schedule')}
            minIntervalMs={MIN_INTERVAL_MS}
            placeholder="Empty: by hand only"
            description="Cron, in the server's time zone; empty runs only with Back up now."
          />
          <CronField
            label="Restore drill schedule"
            value={f.drill}
            onChange={set('drill')}
            minIntervalMs={MIN_INTERVAL_MS}
            placeholder="Empty: by hand only"
            description="Restores the newest archive into a throwaway volume and checks it against its manifest."
          />
          <Group grow align="flex-start">
            {KEEP.map(([key, label, description, min]) => (
              <NumberInput
                key={key}
                label={label}
                description={description}
                min={min}
                max={1000}
                value={f[key]}
                onChange={(v) => set(key)(Number(v) || min)}
              />
            ))}
          </Group>
          {editing ? (
            <Text size="sm" c="dimmed">
              {editing.encrypted
                ? 'Archives are encrypted; the passphrase cannot change (older archives open with it).'
                : 'Archives are not encrypted.'}
            </Text>
          ) : (
            <PasswordInput
              label="Passphrase (optional)"
              description="Encrypts archives with age. Stored sealed; keep a copy elsewhere: without it no archive restores."
              value={f.passphrase}
              onChange={(e) => set('passphrase')(e.currentTarget.value)}
              autoComplete="new-password"
            />
          )}
          {save.error && (
            <Alert color="red" role="alert">
              {errorMessage(save.error)}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={save.isPending} disabled={!f.destination}>
              Save
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
