import { useState, type FormEvent } from 'react';
import {
  ActionIcon,
  Alert,
  Button,
  CopyButton,
  Group,
  Modal,
  Stack,
  Text,
  Textarea,
  TextInput,
  Tooltip,
} from '@mantine/core';
import { IconAlertTriangle, IconCheck, IconCopy } from '@tabler/icons-react';
import type { AgentEnrolment } from '@berth/contract';
import { errorMessage, notifyPlain } from '../../../lib/notify';
import { useCreateAgentEnvironment } from '../api';

/** A read-only block with a copy button. */
function Copyable({ label, value, rows }: { label: string; value: string; rows: number }) {
  return (
    <Stack gap={4}>
      <Group justify="space-between">
        <Text size="sm" fw={500}>
          {label}
        </Text>
        <CopyButton value={value}>
          {({ copied, copy }) => (
            <Tooltip label={copied ? 'Copied' : 'Copy'}>
              <ActionIcon
                variant="subtle"
                aria-label={`Copy ${label}`}
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
      </Group>
      <Textarea
        aria-label={label}
        readOnly
        value={value}
        autosize
        minRows={rows}
        maxRows={rows + 4}
        onFocus={(e) => e.currentTarget.select()}
        styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 12 } }}
      />
    </Stack>
  );
}

/** The one-time token and the commands that start an agent with it. */
export function EnrolmentView({ enrolment, onClose }: { enrolment: AgentEnrolment; onClose: () => void }) {
  return (
    <Stack>
      <Alert color="yellow" icon={<IconAlertTriangle size={18} />}>
        Run one of these on the Docker host of {enrolment.environment.name}. The token works once and cannot be shown
        again after this dialog is closed; the agent dials Berth, so the host needs no open port.
      </Alert>
      <Copyable label="docker run" value={enrolment.docker_run} rows={7} />
      <Copyable label="Compose file" value={enrolment.compose} rows={8} />
      <Copyable label="Enrolment token" value={enrolment.token} rows={1} />
      <Group justify="flex-end">
        <Button onClick={onClose}>Done</Button>
      </Group>
    </Stack>
  );
}

/** Settings → Environments → Add agent: a name in, the enrolment token and commands out (once). */
export function AgentDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const [name, setName] = useState('');
  const [enrolment, setEnrolment] = useState<AgentEnrolment | null>(null);
  const create = useCreateAgentEnvironment();
  const close = () => {
    setName('');
    setEnrolment(null);
    create.reset();
    onClose();
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!name.trim() || create.isPending) return;
    create.mutate({ name: name.trim() }, { onSuccess: setEnrolment });
  };
  return (
    <Modal opened={opened} onClose={close} title="Add an agent environment" centered size="xl">
      {enrolment ? (
        <EnrolmentView enrolment={enrolment} onClose={close} />
      ) : (
        <form onSubmit={submit}>
          <Stack>
            <Text size="sm">
              For a Docker host Berth cannot reach (behind NAT or a home router): an agent beside its engine dials Berth
              over one connection and carries everything Berth does there.
            </Text>
            <TextInput
              label="Name"
              required
              data-autofocus
              value={name}
              onChange={(e) => setName(e.currentTarget.value)}
              maxLength={100}
            />
            {create.error && <Alert color="red">{errorMessage(create.error)}</Alert>}
            <Group justify="flex-end">
              <Button type="submit" disabled={!name.trim()} loading={create.isPending}>
                Create token
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
