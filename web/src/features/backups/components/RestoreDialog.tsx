import { useState, type FormEvent } from 'react';
import {
  Alert,
  Button,
  Checkbox,
  Group,
  Modal,
  PasswordInput,
  Progress,
  SegmentedControl,
  Select,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import type { BackupArchive, RestoreProgress } from '@berth/contract';
import { formatBytes } from '../../../lib/format';
import { errorMessage, notifySuccess } from '../../../lib/notify';
import { useRestore } from '../api';
import { progressPercent } from '../model';

const PHASES: Record<RestoreProgress['phase'], string> = {
  checking: 'Checking the archive (read once before the volume is touched)',
  stopping: 'Stopping the containers that use the volume',
  writing: 'Writing the volume',
  starting: 'Starting the containers again',
};

/** Restore one volume of an archive into a new volume, or over an existing one (confirmed), with its progress. */
export function RestoreDialog({ archive, onClose }: { archive: BackupArchive; onClose: () => void }) {
  const names = archive.manifest.volumes.map((v) => v.name);
  const [volume, setVolume] = useState(names[0] ?? '');
  const [mode, setMode] = useState<'new' | 'overwrite'>('new');
  const [into, setInto] = useState(`${names[0] ?? 'volume'}-restored`);
  const [passphrase, setPassphrase] = useState('');
  const [confirmed, setConfirmed] = useState(false);
  const [progress, setProgress] = useState<RestoreProgress | null>(null);
  const restore = useRestore(setProgress);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setProgress(null);
    restore.mutate(
      {
        archive_id: archive.id,
        volume,
        into: mode === 'new' ? into.trim() : volume,
        overwrite: mode === 'overwrite',
        ...(passphrase ? { passphrase } : {}),
      },
      { onSuccess: (r) => notifySuccess(`Restored into volume ${r.volume}${r.verified ? ', verified' : ''}.`) },
    );
  };
  const result = restore.data;

  return (
    <Modal opened onClose={onClose} size="lg" title={`Restore from ${archive.name}`}>
      <form onSubmit={submit} aria-label="Restore">
        <Stack>
          <Select
            label="Volume in the archive"
            data={names}
            value={volume}
            onChange={(v) => v && setVolume(v)}
            allowDeselect={false}
          />
          <SegmentedControl
            value={mode}
            onChange={(v) => (setMode(v as 'new' | 'overwrite'), setConfirmed(false))}
            data={[
              { value: 'new', label: 'Into a new volume' },
              { value: 'overwrite', label: `Over ${volume}` },
            ]}
          />
          {mode === 'new' ? (
            <TextInput label="New volume" required value={into} onChange={(e) => setInto(e.currentTarget.value)} />
          ) : (
            <Checkbox
              color="red"
              checked={confirmed}
              onChange={(e) => setConfirmed(e.currentTarget.checked)}
              label={`Replace everything in ${volume}: it is emptied first; containers using it are stopped and started after.`}
            />
          )}
          {archive.manifest.archive.encryption && (
            <PasswordInput
              label="Passphrase"
              description="Empty: the job's own."
              value={passphrase}
              onChange={(e) => setPassphrase(e.currentTarget.value)}
              autoComplete="off"
            />
          )}
          {restore.isPending && progress && (
            <Stack gap={4} aria-live="polite">
              <Text size="sm">
                {PHASES[progress.phase]}: {formatBytes(progress.bytes)} of {formatBytes(progress.total)}
              </Text>
              <Progress value={progressPercent(progress)} aria-label="Restore progress" />
            </Stack>
          )}
          {result && (
            <Alert color={result.verified ? 'green' : 'yellow'} role="status" title={`Restored into ${result.volume}`}>
              {result.verified
                ? `The restored volume has the archive's tree checksum (${result.tree.files} files, ${formatBytes(result.tree.bytes)}).`
                : 'The restored volume differs from the archive’s manifest.'}
            </Alert>
          )}
          {restore.error && (
            <Alert color="red" role="alert">
              {errorMessage(restore.error)}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {result ? 'Close' : 'Cancel'}
            </Button>
            {!result && (
              <Button
                type="submit"
                color={mode === 'overwrite' ? 'red' : undefined}
                loading={restore.isPending}
                disabled={mode === 'overwrite' ? !confirmed : !into.trim()}
              >
                Restore
              </Button>
            )}
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
