import { useState, type FormEvent } from 'react';
import {
  Alert,
  Button,
  Checkbox,
  Group,
  List,
  Modal,
  PasswordInput,
  Progress,
  SegmentedControl,
  Select,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import type { BackupArchive, RestoreBody, RestoreProgress } from '@berth/contract';
import { formatBytes } from '../../../lib/format';
import { errorMessage, notifySuccess } from '../../../lib/notify';
import { useRestore } from '../api';
import { progressPercent } from '../model';

const PHASES: Record<RestoreProgress['phase'], string> = {
  checking: 'Checking the archive (read once before anything is touched)',
  stopping: 'Stopping the containers that use it',
  writing: 'Writing',
  starting: 'Starting the containers again',
};

/** What to restore and where, by the archive's target: a volume (new or over it), a project, or Berth's files. */
function useRestoreChoice(archive: BackupArchive) {
  const target = archive.manifest.target;
  const kind = target?.kind ?? 'volumes';
  const names = archive.manifest.volumes.map((v) => v.name);
  const [volume, setVolume] = useState(names[0] ?? '');
  const [overwrite, setOverwrite] = useState(false);
  const [into, setInto] = useState(`${names[0] ?? 'volume'}-restored`);
  const [project, setProject] = useState(target?.kind === 'project' ? target.project : '');
  const [intoDir, setIntoDir] = useState('');
  const [confirmed, setConfirmed] = useState(false);
  const body = (passphrase: string): RestoreBody => {
    const secret = passphrase ? { passphrase } : {};
    if (kind === 'berth') return { kind: 'berth', archive_id: archive.id, into_dir: intoDir.trim(), ...secret };
    if (kind === 'project')
      return { kind: 'project', archive_id: archive.id, project: project.trim(), overwrite: confirmed, ...secret };
    return { archive_id: archive.id, volume, into: overwrite ? volume : into.trim(), overwrite, ...secret };
  };
  const ready =
    kind === 'berth'
      ? intoDir.trim() !== ''
      : kind === 'project'
        ? project.trim() !== ''
        : overwrite
          ? confirmed
          : !!into.trim();
  const fields =
    kind === 'berth' ? (
      <TextInput
        label="Into a new data folder"
        description="An absolute path of a new, empty folder on Berth's host: start Berth on it (DATA_DIR) to use it."
        required
        value={intoDir}
        onChange={(e) => setIntoDir(e.currentTarget.value)}
      />
    ) : kind === 'project' ? (
      <>
        <TextInput label="Project" required value={project} onChange={(e) => setProject(e.currentTarget.value)} />
        <Checkbox
          color="red"
          checked={confirmed}
          onChange={(e) => setConfirmed(e.currentTarget.checked)}
          label="Replace the project's folder and volumes if they exist (its containers are stopped first and started after)."
        />
      </>
    ) : (
      <>
        <Select
          label="Volume in the archive"
          data={names}
          value={volume}
          onChange={(v) => v && setVolume(v)}
          allowDeselect={false}
        />
        <SegmentedControl
          value={overwrite ? 'overwrite' : 'new'}
          onChange={(v) => (setOverwrite(v === 'overwrite'), setConfirmed(false))}
          data={[
            { value: 'new', label: 'Into a new volume' },
            { value: 'overwrite', label: `Over ${volume}` },
          ]}
        />
        {overwrite ? (
          <Checkbox
            color="red"
            checked={confirmed}
            onChange={(e) => setConfirmed(e.currentTarget.checked)}
            label={`Replace everything in ${volume}: it is emptied first; containers using it are stopped and started after.`}
          />
        ) : (
          <TextInput label="New volume" required value={into} onChange={(e) => setInto(e.currentTarget.value)} />
        )}
      </>
    );
  return { body, ready, fields, danger: (kind === 'volumes' && overwrite) || (kind === 'project' && confirmed) };
}

/** Restore from an archive (a volume, a project or Berth's files) with its progress and what was put back. */
export function RestoreDialog({ archive, onClose }: { archive: BackupArchive; onClose: () => void }) {
  const choice = useRestoreChoice(archive);
  const [passphrase, setPassphrase] = useState('');
  const [progress, setProgress] = useState<RestoreProgress | null>(null);
  const restore = useRestore(setProgress);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setProgress(null);
    restore.mutate(choice.body(passphrase), {
      onSuccess: (r) => notifySuccess(`Restored into ${r.volume}${r.verified ? ', verified' : ''}.`),
    });
  };
  const result = restore.data;

  return (
    <Modal opened onClose={onClose} size="lg" title={`Restore from ${archive.name}`}>
      <form onSubmit={submit} aria-label="Restore">
        <Stack>
          {archive.manifest.warning && <Alert color="yellow">{archive.manifest.warning}</Alert>}
          {choice.fields}
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
                ? `Read back, it has the archive's tree checksum (${result.tree.files} files, ${formatBytes(result.tree.bytes)}).`
                : 'Read back, it differs from the archive’s manifest.'}
              {result.restored.length > 1 && (
                <List size="sm" mt="xs">
                  {result.restored.map((r) => (
                    <List.Item key={r.section}>
                      {r.section} → {r.into}: {r.verified ? 'verified' : 'differs'}
                    </List.Item>
                  ))}
                </List>
              )}
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
                color={choice.danger ? 'red' : undefined}
                loading={restore.isPending}
                disabled={!choice.ready}
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
