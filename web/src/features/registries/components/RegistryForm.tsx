import { useState, type FormEvent } from 'react';
import {
  Alert,
  Button,
  Checkbox,
  Group,
  Modal,
  MultiSelect,
  PasswordInput,
  Stack,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { IconPlugConnected } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { environmentApi, type Registry, type RegistryTestResult } from '@berth/contract';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';
import { errorMessage, notifySuccess } from '../../../lib/notify';
import { useSaveRegistry, useTestRegistry } from '../api';

interface Fields {
  name: string;
  server: string;
  username: string;
  password: string;
  ca: string;
  everywhere: boolean;
  environments: string[];
}

const FAILURE: Record<NonNullable<RegistryTestResult['failure']>, string> = {
  unauthorized: 'Unauthorized',
  tls: 'TLS',
  unreachable: 'Unreachable',
  not_registry: 'Not a registry',
};

/** The test's answer, where the user clicked. */
export function TestResult({ result }: { result: RegistryTestResult }) {
  return (
    <Alert
      color={result.ok ? 'green' : 'red'}
      title={result.ok ? 'Registry reached' : FAILURE[result.failure ?? 'unreachable']}
      role="status"
    >
      {result.detail}
    </Alert>
  );
}

/** Add or edit a registry credential; Test reaches its /v2/ with what is typed (the stored password when none is). */
export function RegistryForm({ editing, onClose }: { editing: Registry | null; onClose: () => void }) {
  const save = useSaveRegistry();
  const test = useTestRegistry();
  // The environments to choose from (the same global list the switcher reads; no other feature imported).
  const envs = useQuery({
    queryKey: queryKeys.environments.list(),
    queryFn: ({ signal }) => api(environmentApi.list, { signal }),
  });
  const [f, setF] = useState<Fields>(() => ({
    name: editing?.name ?? '',
    server: editing?.server_address ?? '',
    username: editing?.username ?? '',
    password: '',
    ca: editing?.ca_cert ?? '',
    everywhere: editing ? editing.environments === null : true,
    environments: editing?.environments ?? [],
  }));
  const set =
    <K extends keyof Fields>(k: K) =>
    (v: Fields[K]) => {
      test.reset();
      setF((old) => ({ ...old, [k]: v }));
    };

  const body = () => ({
    name: f.name.trim(),
    server_address: f.server.trim(),
    username: f.username.trim() || null,
    ...(f.password ? { password: f.password } : {}),
    ca_cert: f.ca.trim() || null,
    environments: f.everywhere ? null : f.environments,
  });
  const runTest = () => {
    const { name: _name, environments: _envs, ...fields } = body();
    test.mutate({ id: null, body: { ...fields, ...(editing ? { id: editing.id } : {}) } });
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate(
      { id: editing?.id ?? null, body: body() },
      {
        onSuccess: (r) => {
          notifySuccess(`Registry ${r.name} ${editing ? 'saved' : 'added'}.`);
          onClose();
        },
      },
    );
  };

  return (
    <Modal opened onClose={onClose} title={<Text fw={600}>{editing ? `Edit ${editing.name}` : 'Add registry'}</Text>}>
      <form onSubmit={submit} aria-label={editing ? 'Edit registry' : 'Add registry'}>
        <Stack>
          <TextInput
            label="Name"
            required
            value={f.name}
            onChange={(e) => set('name')(e.currentTarget.value)}
            placeholder="GitHub packages"
            autoComplete="off"
            data-autofocus
          />
          <TextInput
            label="Server address"
            required
            value={f.server}
            onChange={(e) => set('server')(e.currentTarget.value)}
            placeholder="ghcr.io"
            description="As image names start: ghcr.io, registry.gitlab.com, docker.io, host:port"
            autoComplete="off"
          />
          <TextInput
            label="Username"
            value={f.username}
            onChange={(e) => set('username')(e.currentTarget.value)}
            autoComplete="off"
          />
          <PasswordInput
            label="Password or token"
            value={f.password}
            onChange={(e) => set('password')(e.currentTarget.value)}
            description={
              editing?.has_password ? 'Leave empty to keep the stored one.' : 'Stored sealed; never shown again.'
            }
            autoComplete="new-password"
          />
          <Textarea
            label="CA certificate (optional)"
            value={f.ca}
            onChange={(e) => set('ca')(e.currentTarget.value)}
            placeholder="-----BEGIN CERTIFICATE-----"
            description="For a registry whose TLS certificate is signed by your own CA."
            autosize
            minRows={2}
            maxRows={6}
            ff="monospace"
          />
          <Checkbox
            label="Every environment may use it"
            checked={f.everywhere}
            onChange={(e) => set('everywhere')(e.currentTarget.checked)}
          />
          {!f.everywhere && (
            <MultiSelect
              label="Environments"
              data={(envs.data ?? []).map((e) => ({ value: e.id, label: e.name }))}
              value={f.environments}
              onChange={set('environments')}
              placeholder="None: no environment uses it"
              searchable
            />
          )}
          {test.data && <TestResult result={test.data} />}
          {(save.error ?? test.error) && (
            <Alert color="red" role="alert">
              {errorMessage(save.error ?? test.error)}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button
              variant="default"
              leftSection={<IconPlugConnected size={16} />}
              onClick={runTest}
              loading={test.isPending}
              disabled={!f.server.trim()}
            >
              Test
            </Button>
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={save.isPending}>
              Save
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
