import { useState } from 'react';
import { Accordion, Badge, Button, Group, Modal, Text } from '@mantine/core';
import { IconTerminal2 } from '@tabler/icons-react';
import { projectApi, terminalApi, type ComposeService, type HealthStatus, type ServiceAction } from '@berth/contract';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { HealthBadge } from '../../../components/HealthBadge';
import { useCan } from '../../../lib/session';
import { useProjectAction } from '../api/mutations';
import { serviceActionApplies } from '../model';
import { TerminalPanel } from '../../terminal';
import { ServiceFields } from './ServiceFields';

const SERVICE_BUTTONS: { action: ServiceAction; label: string }[] = [
  { action: 'up', label: 'Up' },
  { action: 'start', label: 'Start' },
  { action: 'stop', label: 'Stop' },
  { action: 'restart', label: 'Restart' },
  { action: 'pull', label: 'Pull' },
  { action: 'kill', label: 'Kill' },
  { action: 'rm', label: 'Remove' },
];

/** Kill and Remove lose what the containers hold, so they ask first (like an app's Remove). */
const CONFIRM: Partial<Record<ServiceAction, { title: (s: string) => string; text: (s: string) => string }>> = {
  kill: {
    title: (s) => `Kill ${s}?`,
    text: (s) =>
      `The containers of ${s} are killed at once, without a chance to shut down cleanly; work they have not saved is lost.`,
  },
  rm: {
    title: (s) => `Remove ${s}?`,
    text: (s) => `The containers of ${s} are stopped and removed. All non-persistent data will be removed`,
  },
};

const STATUS_COLOR: Record<string, string> = {
  running: 'green',
  exited: 'red',
  created: 'blue',
  paused: 'yellow',
  restarting: 'orange',
};

/** One service: its image and live status, its own actions (those its state and the user's role allow), and its fields. */
export function ServicePanel({
  project,
  name,
  service,
  status,
  health = 'none',
}: {
  project: string;
  name: string;
  service: ComposeService;
  status: string;
  /** Its least healthy container's health (serviceHealth). */
  health?: HealthStatus;
}) {
  const action = useProjectAction();
  const canAct = useCan(projectApi.serviceAction);
  const canExec = useCan(terminalApi.serviceExec);
  const [confirming, setConfirming] = useState<ServiceAction | null>(null);
  const [terminal, setTerminal] = useState(false);
  const running = status.split(', ').includes('running');
  const run = (a: ServiceAction) =>
    action.mutate({ name: project, action: a, service: name }, { onSettled: () => setConfirming(null) });
  const confirm = confirming ? CONFIRM[confirming] : undefined;
  return (
    <Accordion.Item value={name}>
      <Accordion.Control aria-label={`Service ${name}`}>
        <Group gap="sm" wrap="wrap">
          <Text fw={600}>{name}</Text>
          <Text size="sm" c="dimmed" style={{ wordBreak: 'break-all' }}>
            {service.image ?? 'No Image'}
          </Text>
          <Badge
            variant="light"
            color={STATUS_COLOR[status.split(',')[0] ?? ''] ?? 'gray'}
            data-testid={`status-${name}`}
          >
            {status}
          </Badge>
          <HealthBadge health={health} />
        </Group>
      </Accordion.Control>
      <Accordion.Panel>
        {(canAct || canExec) && (
          <Group gap="xs" mb="sm">
            {canAct &&
              SERVICE_BUTTONS.map((b) => (
                <Button
                  key={b.action}
                  size="xs"
                  variant="light"
                  color={b.action === 'rm' || b.action === 'kill' ? 'red' : undefined}
                  disabled={action.isPending || !serviceActionApplies(b.action, status)}
                  loading={
                    action.isPending && action.variables?.service === name && action.variables.action === b.action
                  }
                  onClick={() => (CONFIRM[b.action] ? setConfirming(b.action) : run(b.action))}
                  aria-label={`${b.label} ${name}`}
                >
                  {b.label}
                </Button>
              ))}
            {canExec && (
              <Button
                size="xs"
                variant="light"
                color="gray"
                leftSection={<IconTerminal2 size={14} />}
                disabled={!running}
                title={running ? undefined : 'Start the service to open a terminal'}
                onClick={() => setTerminal(true)}
                aria-label={`Terminal ${name}`}
              >
                Terminal
              </Button>
            )}
          </Group>
        )}
        <ServiceFields service={service} />
      </Accordion.Panel>
      <Modal opened={terminal} onClose={() => setTerminal(false)} title={`Terminal: ${project}/${name}`} size="xl">
        {terminal && <TerminalPanel target={{ project, service: name }} />}
      </Modal>
      <ConfirmDialog
        opened={confirm !== undefined}
        title={confirm?.title(name) ?? ''}
        confirmLabel={confirming === 'kill' ? 'Kill' : 'Remove'}
        loading={action.isPending}
        onConfirm={() => confirming && run(confirming)}
        onCancel={() => setConfirming(null)}
      >
        {confirm?.text(name)}
      </ConfirmDialog>
    </Accordion.Item>
  );
}
