import {
  ActionIcon,
  Button,
  Card,
  Code,
  Group,
  SegmentedControl,
  Stack,
  Table,
  Text,
  TextInput,
  Textarea,
  Title,
} from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useCreateGitCredential, useDeleteGitCredential, useGitCredentials } from '../api';

/** Settings → Git: the credentials projects fetch with. Tokens and keys go in, never come back. */
export function GitCredentialsCard() {
  const list = useGitCredentials();
  const create = useCreateGitCredential();
  const remove = useDeleteGitCredential();
  const [kind, setKind] = useState<'https' | 'ssh'>('https');
  const [name, setName] = useState('');
  const [username, setUsername] = useState('');
  const [secret, setSecret] = useState('');
  const [knownHosts, setKnownHosts] = useState('');
  const submit = () =>
    create.mutate(
      kind === 'https'
        ? { kind, name, username, token: secret }
        : { kind, name, private_key: secret, ...(knownHosts ? { known_hosts: knownHosts } : {}) },
      { onSuccess: () => [setName, setUsername, setSecret, setKnownHosts].forEach((f) => f('')) },
    );
  return (
    <Stack>
      <Card withBorder>
        <Title order={3} size="h5" mb="sm">
          Git credentials
        </Title>
        <Text size="sm" c="dimmed" mb="sm">
          Used to fetch git-backed projects. Stored sealed; a token or key is never shown again, never written into a
          project's folder. An SSH host's key is kept the first time it is seen; a changed key is refused.
        </Text>
        <Table>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Name</Table.Th>
              <Table.Th>Kind</Table.Th>
              <Table.Th>User / host keys</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {(list.data ?? []).map((c) => (
              <Table.Tr key={c.id}>
                <Table.Td>{c.name}</Table.Td>
                <Table.Td>{c.kind}</Table.Td>
                <Table.Td>
                  {c.kind === 'https'
                    ? c.username
                    : c.known_hosts.map((h) => (
                        <Code key={h} block>
                          {h}
                        </Code>
                      ))}
                </Table.Td>
                <Table.Td>
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    aria-label={`Remove ${c.name}`}
                    onClick={() => remove.mutate(c.id)}
                  >
                    <IconTrash size={16} />
                  </ActionIcon>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
        {list.data?.length === 0 && <Text c="dimmed">No git credentials.</Text>}
      </Card>
      <Card withBorder>
        <Title order={3} size="h5" mb="sm">
          Add a git credential
        </Title>
        <Stack>
          <SegmentedControl
            value={kind}
            onChange={(v) => setKind(v as 'https' | 'ssh')}
            data={[
              { value: 'https', label: 'HTTPS username + token' },
              { value: 'ssh', label: 'SSH deploy key' },
            ]}
          />
          <TextInput label="Name" required value={name} onChange={(e) => setName(e.currentTarget.value)} />
          {kind === 'https' ? (
            <>
              <TextInput
                label="Username"
                required
                value={username}
                onChange={(e) => setUsername(e.currentTarget.value)}
              />
              <TextInput
                label="Token"
                type="password"
                required
                value={secret}
                onChange={(e) => setSecret(e.currentTarget.value)}
              />
            </>
          ) : (
            <>
              <Textarea
                label="Private key (no passphrase)"
                autosize
                minRows={4}
                required
                value={secret}
                onChange={(e) => setSecret(e.currentTarget.value)}
              />
              <Textarea
                label="Known hosts (optional: else each host's key is kept when first seen)"
                autosize
                value={knownHosts}
                onChange={(e) => setKnownHosts(e.currentTarget.value)}
              />
            </>
          )}
          <Group>
            <Button onClick={submit} loading={create.isPending} disabled={!name || !secret}>
              Add credential
            </Button>
          </Group>
        </Stack>
      </Card>
    </Stack>
  );
}
