import { NumberInput, Select } from '@mantine/core';
import { gitApi, type GitSync } from '@berth/contract';
import { useCan } from '../../../lib/session';
import { useGitCredentials } from '../api';

/** The stored git credential to use, or none for a public repository (users who may not list them see none). */
export function GitCredentialSelect({
  value,
  onChange,
}: {
  value: string | null;
  onChange: (id: string | null) => void;
}) {
  const credentials = useGitCredentials(useCan(gitApi.credentials));
  return (
    <Select
      label="Credential"
      placeholder="None (a public repository)"
      clearable
      data={(credentials.data ?? []).map((c) => ({ value: c.id, label: `${c.name} (${c.kind})` }))}
      value={value}
      onChange={onChange}
    />
  );
}

/** How a git source follows its repository: manual, polled every N minutes, or by webhook. */
export function GitSyncFields({
  policy,
  minutes,
  onPolicy,
  onMinutes,
  manualLabel = 'Manual',
}: {
  policy: GitSync['policy'];
  minutes: number;
  onPolicy: (policy: GitSync['policy']) => void;
  onMinutes: (minutes: number) => void;
  manualLabel?: string;
}) {
  return (
    <>
      <Select
        label="Sync"
        data={[
          { value: 'manual', label: manualLabel },
          { value: 'poll', label: 'Poll every N minutes' },
          { value: 'webhook', label: 'Webhook (a push deploys)' },
        ]}
        value={policy}
        onChange={(v) => onPolicy((v as GitSync['policy'] | null) ?? 'manual')}
        allowDeselect={false}
      />
      {policy === 'poll' && (
        <NumberInput label="Minutes" min={1} max={1440} value={minutes} onChange={(v) => onMinutes(Number(v) || 1)} />
      )}
    </>
  );
}

/** The sync policy a form's fields stand for, as the API takes it. */
export const syncOf = (policy: GitSync['policy'], minutes: number): GitSync =>
  policy === 'poll' ? { policy, interval_minutes: minutes } : { policy };
