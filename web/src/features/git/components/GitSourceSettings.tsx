import { Alert, Button, Code, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import type { GitStatus, GitSync } from '@berth/contract';
import { errorMessage } from '../../../lib/notify';
import { usePatchGitSource, type GitKind } from '../api';
import { GitCredentialSelect, GitSyncFields, syncOf } from './GitFields';

/** The dialog that changes a git source: ref, file, env file, credential, sync policy (PATCH …/git). */
export function GitSourceSettings({
  name,
  kind,
  git,
  onClose,
}: {
  name: string;
  kind: GitKind;
  git: GitStatus;
  onClose: () => void;
}) {
  const [ref, setRef] = useState(git.ref);
  const [path, setPath] = useState(git.path);
  const [envFile, setEnvFile] = useState(git.env_file ?? '');
  const [credential, setCredential] = useState<string | null>(git.credential_id);
  const [policy, setPolicy] = useState<GitSync['policy']>(git.sync.policy);
  const [minutes, setMinutes] = useState(git.sync.policy === 'poll' ? git.sync.interval_minutes : 15);
  const patch = usePatchGitSource(name, kind);
  const secret = patch.data?.webhook_secret ?? null;
  const save = () =>
    patch.mutate(
      {
        ...(ref !== git.ref ? { ref } : {}),
        ...(path !== git.path ? { path } : {}),
        ...(kind === 'project' && envFile !== (git.env_file ?? '') ? { env_file: envFile || null } : {}),
        ...(credential !== git.credential_id ? { credential_id: credential } : {}),
        sync: syncOf(policy, minutes),
      },
      { onSuccess: (r) => !r.webhook_secret && onClose() },
    );
  return (
    <Modal opened onClose={onClose} title="Git source">
      {secret ? (
        <Stack>
          <Text size="sm">
            Webhook secret (shown this once): <Code data-testid="webhook-secret">{secret}</Code>
          </Text>
          <Button onClick={onClose}>Done</Button>
        </Stack>
      ) : (
        <Stack>
          <TextInput label="Ref" required value={ref} onChange={(e) => setRef(e.currentTarget.value)} />
          <TextInput label="File in the repository" value={path} onChange={(e) => setPath(e.currentTarget.value)} />
          {kind === 'project' && (
            <TextInput
              label=".env file in the repository"
              description="Empty: none (the project's .env stays as it is)"
              value={envFile}
              onChange={(e) => setEnvFile(e.currentTarget.value)}
            />
          )}
          <GitCredentialSelect value={credential} onChange={setCredential} />
          <GitSyncFields policy={policy} minutes={minutes} onPolicy={setPolicy} onMinutes={setMinutes} />
          {patch.error && (
            <Alert color="red" title="Nothing was changed">
              {errorMessage(patch.error)}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button onClick={save} loading={patch.isPending} disabled={!ref}>
              Save
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
