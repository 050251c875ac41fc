import { ActionIcon, Alert, Button, CopyButton, Group, Modal, Stack, TextInput, Tooltip } from '@mantine/core';
import { IconAlertTriangle, IconCheck, IconCopy } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { PasswordField } from '../../../components/PasswordField';
import { notifyPlain } from '../../../lib/notify';
import { useGenerateApiKey } from '../api';

/** 'Generate API Key': a name in, the token out once; closing the dialog forgets it. */
export function GenerateKeyDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const [name, setName] = useState('');
  const [current, setCurrent] = useState('');
  const [token, setToken] = useState<string | null>(null);
  const generate = useGenerateApiKey();

  const close = () => {
    setName('');
    setCurrent('');
    setToken(null);
    generate.reset();
    onClose();
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!name.trim() || !current || generate.isPending) return;
    generate.mutate(
      { keyName: name.trim(), currentPassword: current },
      {
        onSuccess: (key) => {
          setCurrent('');
          setToken(key.token);
        },
      },
    );
  };

  return (
    <Modal opened={opened} onClose={close} title="Generate API Key" centered size="lg">
      {token === null ? (
        <form onSubmit={submit}>
          <Stack>
            <TextInput
              label="Name"
              required
              data-autofocus
              value={name}
              onChange={(e) => setName(e.currentTarget.value)}
              maxLength={255}
            />
            <PasswordField
              label="Current Password"
              description="Confirms that it is you."
              required
              autoComplete="current-password"
              value={current}
              onChange={(e) => setCurrent(e.currentTarget.value)}
            />
            <Group justify="flex-end">
              <Button type="submit" disabled={!name.trim() || !current} loading={generate.isPending}>
                Generate Key
              </Button>
            </Group>
          </Stack>
        </form>
      ) : (
        <Stack>
          <Alert color="yellow" icon={<IconAlertTriangle size={18} />}>
            Copy this key now. It cannot be retrieved after this dialog is closed.
          </Alert>
          <TextInput
            label="API Key"
            readOnly
            value={token}
            onFocus={(e) => e.currentTarget.select()}
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
            rightSection={
              <CopyButton value={token}>
                {({ copied, copy }) => (
                  <Tooltip label={copied ? 'Copied' : 'Copy'}>
                    <ActionIcon
                      variant="subtle"
                      aria-label="Copy API key"
                      onClick={() => {
                        copy();
                        notifyPlain('Copied to clipboard');
                      }}
                    >
                      {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
                    </ActionIcon>
                  </Tooltip>
                )}
              </CopyButton>
            }
          />
          <Group justify="flex-end">
            <Button onClick={close}>Done</Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
