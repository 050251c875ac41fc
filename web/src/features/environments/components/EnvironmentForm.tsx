import { useState, type FormEvent } from 'react';
import {
  Alert,
  Button,
  Checkbox,
  FileButton,
  Group,
  Modal,
  PasswordInput,
  Stack,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import type { Environment, EnvironmentPatchBody, NewEnvironmentBody } from '@berth/contract';
import { errorMessage, notifySuccess } from '../../../lib/notify';
import { useCreateEnvironment, useUpdateEnvironment } from '../api';

interface Fields {
  name: string;
  url: string;
  ca: string;
  cert: string;
  key: string;
  user: string;
  privateKey: string;
  passphrase: string;
  hostKey: string;
  saveUnreachable: boolean;
}

const EMPTY: Fields = {
  name: '',
  url: '',
  ca: '',
  cert: '',
  key: '',
  user: '',
  privateKey: '',
  passphrase: '',
  hostKey: '',
  saveUnreachable: false,
};

const kindOf = (url: string) =>
  url.startsWith('ssh://') ? 'ssh' : url.startsWith('tcp://') ? 'tcp' : url.startsWith('unix://') ? 'socket' : null;

/** A PEM field: pasted, or read from a chosen file (the text stays in the browser until sent). */
function PemField({
  label,
  value,
  onChange,
  required,
  placeholder,
}: {
  label: string;
  value: string;
  onChange: (v: string) => void;
  required: boolean;
  placeholder: string;
}) {
  return (
    <Stack gap={4}>
      <Textarea
        label={label}
        value={value}
        onChange={(e) => onChange(e.currentTarget.value)}
        required={required}
        placeholder={placeholder}
        autosize
        minRows={2}
        maxRows={6}
        ff="monospace"
      />
      <FileButton onChange={(file) => void file?.text().then(onChange)}>
        {(props) => (
          <Button {...props} variant="subtle" size="compact-xs" w="fit-content">
            Load {label.toLowerCase()} from a file
          </Button>
        )}
      </FileButton>
    </Stack>
  );
}

/** Builds the request body; on edit, empty secret fields mean "keep the stored one". */
function toBody(f: Fields, editing: boolean): NewEnvironmentBody | EnvironmentPatchBody {
  const kind = kindOf(f.url.trim());
  const opt = (v: string) => (v.trim() ? v.trim() : undefined);
  const tls =
    kind === 'tcp' && (!editing || f.ca || f.cert || f.key)
      ? { ca: opt(f.ca), cert: opt(f.cert), key: opt(f.key) }
      : undefined;
  const ssh =
    kind === 'ssh' && (!editing || f.user || f.privateKey || f.passphrase || f.hostKey)
      ? {
          user: opt(f.user),
          private_key: opt(f.privateKey),
          passphrase: f.passphrase || undefined,
          host_key: opt(f.hostKey),
        }
      : undefined;
  return {
    name: f.name.trim(),
    url: f.url.trim(),
    ...(tls ? { tls } : {}),
    ...(ssh ? { ssh } : {}),
    ...(f.saveUnreachable ? { save_unreachable: true } : {}),
  } as NewEnvironmentBody;
}

/**
 * Add or edit an environment: URL, then TLS files or SSH user and key; the server tries the connection first.
 * A refusal is shown just above the buttons, where the user clicked, not at the top of a long form.
 */
export function EnvironmentForm({
  editing,
  opened,
  onClose,
  onDone,
}: {
  editing: Environment | null;
  opened: boolean;
  onClose: () => void;
  /** Called with the saved environment before the dialog closes (the panel says the result beside its button). */
  onDone?: (env: Environment) => void;
}) {
  const create = useCreateEnvironment();
  const update = useUpdateEnvironment();
  const [f, setF] = useState<Fields>(() =>
    editing
      ? {
          ...EMPTY,
          name: editing.name,
          url: editing.url,
          user: editing.ssh?.user ?? '',
          hostKey: editing.ssh?.host_key ?? '',
        }
      : EMPTY,
  );
  const set =
    <K extends keyof Fields>(k: K) =>
    (v: Fields[K]) =>
      setF((old) => ({ ...old, [k]: v }));
  const kind = kindOf(f.url.trim());
  const pending = create.isPending || update.isPending;
  const error = create.error ?? update.error;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const done = (env: Environment) => {
      notifySuccess(`Environment ${env.name} ${editing ? 'saved' : 'added'}.`);
      onDone?.(env);
      onClose();
    };
    if (editing) update.mutate({ id: editing.id, body: toBody(f, true) as EnvironmentPatchBody }, { onSuccess: done });
    else create.mutate(toBody(f, false) as NewEnvironmentBody, { onSuccess: done });
  };

  const keep = editing ? 'Leave empty to keep the stored one.' : undefined;
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={<Text fw={600}>{editing ? `Edit ${editing.name}` : 'Add environment'}</Text>}
      size="lg"
    >
      <form onSubmit={submit} aria-label={editing ? 'Edit environment' : 'Add environment'}>
        <Stack>
          <TextInput
            label="Name"
            value={f.name}
            onChange={(e) => set('name')(e.currentTarget.value)}
            required
            placeholder="Build host"
            autoComplete="off"
          />
          <TextInput
            label="URL"
            value={f.url}
            onChange={(e) => set('url')(e.currentTarget.value)}
            required
            placeholder="tcp://host:2376 or ssh://user@host"
            description="tcp://host:port (TLS), ssh://user@host[:port] or unix:///path/to/docker.sock"
            autoComplete="off"
          />
          {kind === 'tcp' && (
            <>
              {keep && <Text size="sm">{keep}</Text>}
              <PemField
                label="CA certificate"
                value={f.ca}
                onChange={set('ca')}
                required={!editing}
                placeholder="-----BEGIN CERTIFICATE-----"
              />
              <PemField
                label="Client certificate"
                value={f.cert}
                onChange={set('cert')}
                required={!editing}
                placeholder="-----BEGIN CERTIFICATE-----"
              />
              <PemField
                label="Client key"
                value={f.key}
                onChange={set('key')}
                required={!editing}
                placeholder="-----BEGIN PRIVATE KEY-----"
              />
            </>
          )}
          {kind === 'ssh' && (
            <>
              <TextInput
                label="SSH user"
                value={f.user}
                onChange={(e) => set('user')(e.currentTarget.value)}
                placeholder="from the URL when empty"
                autoComplete="off"
              />
              <PemField
                label="Private key"
                value={f.privateKey}
                onChange={set('privateKey')}
                required={!editing}
                placeholder="-----BEGIN OPENSSH PRIVATE KEY-----"
              />
              {keep && <Text size="sm">{keep}</Text>}
              <PasswordInput
                label="Key passphrase"
                value={f.passphrase}
                onChange={(e) => set('passphrase')(e.currentTarget.value)}
                autoComplete="new-password"
              />
              <TextInput
                label="Host key"
                value={f.hostKey}
                onChange={(e) => set('hostKey')(e.currentTarget.value)}
                placeholder="ssh-ed25519 AAAA…"
                description="The server's public host key; when empty, the key shown on the first connection is kept."
                autoComplete="off"
              />
            </>
          )}
          <Checkbox
            label="Save even if the engine does not answer now"
            checked={f.saveUnreachable}
            onChange={(e) => set('saveUnreachable')(e.currentTarget.checked)}
          />
          {error && (
            <Alert color="red" title="Not saved" role="alert">
              {errorMessage(error)}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose} disabled={pending}>
              Cancel
            </Button>
            <Button type="submit" loading={pending}>
              {editing ? 'Save' : 'Add'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
