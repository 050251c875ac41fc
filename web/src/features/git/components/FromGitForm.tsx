import { Alert, Button, Card, Code, Group, NumberInput, Select, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { gitApi, type FromGitResult, type GitSync } from '@berth/contract';
import { useCan } from '../../../lib/session';
import { errorMessage } from '../../../lib/notify';
import { useFromGit, useGitCredentials, type GitKind } from '../api';

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
  const credentials = useGitCredentials(useCan(gitApi.credentials));
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
    const sync: GitSync = policy === 'poll' ? { policy, interval_minutes: minutes } : { policy };
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
        <Select
          label="Credential"
          placeholder="None (a public repository)"
          clearable
          data={(credentials.data ?? []).map((c) => ({ value: c.id, label: `${c.name} (${c.kind})` }))}
          value={credential}
          onChange={setCredential}
        />
        <Select
          label="Sync"
          data={[
            { value: 'manual', label: `Manual (Pull and Deploy on the ${kind} page)` },
            { value: 'poll', label: 'Poll every N minutes' },
            { value: 'webhook', label: 'Webhook (a push deploys)' },
          ]}
          value={policy}
          onChange={(v) => setPolicy((v as GitSync['policy'] | null) ?? 'manual')}
          allowDeselect={false}
        />
        {policy === 'poll' && (
          <NumberInput
            label="Minutes"
            min={1}
            max={1440}
            value={minutes}
            onChange={(v) => setMinutes(Number(v) || 1)}
          />
        )}
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
