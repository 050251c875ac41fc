import { Alert, SegmentedControl, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { BERTH_ARCHIVE_WARNING, projectApi, volumeApi } from '@berth/contract';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { kindLabel, type FieldValues } from '../form-schema';
import { targetFields, targetKinds, type TargetKind } from '../model';
import { FieldInput } from './FieldInput';

/** What a job backs up: the target kinds of the contract, each with its generated fields, in environment `env`. */
export function TargetFields({
  env,
  kind,
  values,
  onKind,
  onValues,
}: {
  env: string;
  kind: TargetKind;
  values: FieldValues;
  onKind: (kind: TargetKind) => void;
  onValues: (values: FieldValues) => void;
}) {
  const fields = targetFields(kind);
  const volumes = useQuery({
    queryKey: queryKeys.volumes.list(env),
    queryFn: ({ signal }) => api(volumeApi.list, { env, signal }),
    enabled: fields.some((f) => f.input === 'volumes'),
  });
  const projects = useQuery({
    queryKey: queryKeys.projects.list(env),
    queryFn: ({ signal }) => api(projectApi.list, { env, signal }),
    enabled: fields.some((f) => f.input === 'project'),
  });
  const choices = {
    volumes: (volumes.data ?? []).map((v) => v.Name),
    project: (projects.data ?? []).map((p) => p.name),
  };
  return (
    <Stack gap="xs">
      <div>
        <Text size="sm" fw={500} mb={4}>
          Back up
        </Text>
        <SegmentedControl
          aria-label="Target kind"
          value={kind}
          onChange={(v) => onKind(v as TargetKind)}
          data={targetKinds().map((k) => ({ value: k, label: kindLabel(k) }))}
        />
      </div>
      {fields.map((f) => (
        <FieldInput
          key={`${kind}.${f.key}`}
          f={f}
          value={values[f.key] ?? f.defaultValue}
          onChange={(v) => onValues({ ...values, [f.key]: v })}
          choices={f.input === 'volumes' ? choices.volumes : f.input === 'project' ? choices.project : undefined}
        />
      ))}
      {kind === 'berth' && (
        <Alert color="yellow" title="This archive holds secrets">
          {BERTH_ARCHIVE_WARNING}
        </Alert>
      )}
    </Stack>
  );
}
