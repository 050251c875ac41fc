import { Alert, Button, Card, Code, Group, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import type { FromGitResult, GitSync } from '@berth/contract';
import { errorMessage } from '../../../lib/notify';
import { useFromGit, type GitKind } from '../api';
import { GitCredentialSelect, GitSyncFields, syncOf } from './GitFields';

const WORDS = {
  project: { noun: 'Project', file: 'Compose file in the repository', to: (n: string) => `/projects/${n}` },
  stack: { noun: 'Stack', file: 'Stack file in the repository', to: (n: string) => `/swarm/stacks/${n}` },
};

/** "From git": a project (or stack) whose files come from a repository (URL, ref, path, credential, sync policy). */
export function FromGitForm({ kind = 'project' }: { kind?: GitKind }) {
  const words = WORDS[kind];
  const [name, setName] = useState('');
  const [url, setUrl] = useState('');
  const [ref, setRef] = useState('main');
  const [path, setPath] = useState('');
  const [envFile, setEnvFile] = useState('');
  const [credential, setCredential] = useState<string | null>(null);
  const [policy, setPolicy] = useState<GitSync['policy']>('manual');
  const [minutes, setMinutes] = useState<number>(15);
  const [done, setDone] = useState<FromGitResult | null>(null);
  const create = useFromGit(kind);
  if (done)
    return (
      <Card withBorder>
        <Stack>
          <Text>
            {words.noun} <b>{done.name}</b> created from git at commit <Code>{done.git.head_commit?.slice(0, 12)}</Code>
            . It is not started: open it and Deploy.
          </Text>
          {done.git.webhook_url && (
            <Alert color="yellow" title="Webhook">
              <Text size="sm">
                URL: <Code data-testid="webhook-url">{`${location.origin}${done.git.webhook_url}`}</Code>
              </Text>
              {done.webhook_secret ? (
                <Text size="sm">
                  Secret (shown this once): <Code data-testid="webhook-secret">{done.webhook_secret}</Code>
                </Text>
              ) : (
                <Text size="sm">This repository's webhook already existed; it now serves this {kind} too.</Text>
              )}
            </Alert>
          )}
          <Group>
            <Button component={Link} to={words.to(encodeURIComponent(done.name))}>
              Open {done.name}
            </Button>
          </Group>
        </Stack>
      </Card>
    );
  const submit = () => {
    const sync = syncOf(policy, minutes);
    create.mutate(
      {
        name,
        url,
        ref,
        ...(path ? { path } : {}),
        ...(envFile ? { env_file: envFile } : {}),
        ...(credential ? { credential_id: credential } : {}),
        sync,
      },
      { onSuccess: setDone },
    );
  };
  return (
    <Card withBorder>
      <Stack>
        <TextInput
          label={`${words.noun} name`}
          required
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
        />
        <TextInput
          label="Repository URL"
          description="https://, git://, ssh:// or user@host:path"
          required
          value={url}
          onChange={(e) => setUrl(e.currentTarget.value)}
        />
        <TextInput
          label="Ref"
          description="A branch, tag or commit"
          required
          value={ref}
          onChange={(e) => setRef(e.currentTarget.value)}
        />
        <TextInput
          label={words.file}
          placeholder="compose.yaml"
          value={path}
          onChange={(e) => setPath(e.currentTarget.value)}
        />
        {kind === 'project' && (
          <TextInput
            label=".env file in the repository (optional)"
            value={envFile}
            onChange={(e) => setEnvFile(e.currentTarget.value)}
          />
        )}
        <GitCredentialSelect value={credential} onChange={setCredential} />
        <GitSyncFields
          policy={policy}
          minutes={minutes}
          onPolicy={setPolicy}
          onMinutes={setMinutes}
          manualLabel={`Manual (Pull and Deploy on the ${kind} page)`}
        />
        {create.error && (
          <Alert color="red" title={`The ${kind} was not created`}>
            {errorMessage(create.error)}
          </Alert>
        )}
        <Group>
          <Button onClick={submit} loading={create.isPending} disabled={!name || !url || !ref}>
            Create from git
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}
